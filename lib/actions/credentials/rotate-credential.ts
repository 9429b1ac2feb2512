"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { action } from "@/lib/actions/action";
import { rotateCredential } from "@/lib/credentials/store";

const input = z.object({
  id: z.uuid("that is not a credential id"),
  value: z.string(),
  confirm: z.boolean().optional(),
});

/** Replaces a credential's value (admins only): every flow using it sends the new one from its next step on. */
export const rotateCredentialAction = action(
  { role: "admin", input },
  async ({ id, value, confirm }, caller) => {
    const { name, last4, rotatedAt } = await rotateCredential(caller, id, { value, confirm });
    refresh();
    return { id, name, last4, rotatedAt };
  },
);
