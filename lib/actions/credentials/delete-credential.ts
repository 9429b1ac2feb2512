"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { action } from "@/lib/actions/action";
import { deleteCredential } from "@/lib/credentials/store";

const input = z.object({ id: z.uuid("that is not a credential id") });

/** Deletes a credential; refused (naming them) while active automations use it. */
export const deleteCredentialAction = action({ role: "editor", input }, async ({ id }, caller) => {
  await deleteCredential(caller, id);
  refresh();
  return { id };
});
