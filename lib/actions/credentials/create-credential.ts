"use server";

import { refresh } from "next/cache";
import { action } from "@/lib/actions/action";
import { createCredential, createCredentialInput } from "@/lib/credentials/store";

/** Stores a new credential (admins only); the reply names it and shows its last 4 characters, never the value. */
export const createCredentialAction = action(
  { role: "admin", input: createCredentialInput },
  async (input, caller) => {
    const { id, name, kind, last4, allowedHosts } = await createCredential(caller, input);
    refresh();
    return { id, name, kind, last4, allowedHosts };
  },
);
