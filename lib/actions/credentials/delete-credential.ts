"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { action } from "@/lib/actions/action";
import { deleteCredential } from "@/lib/credentials/store";

const input = z.object({ id: z.uuid("that is not a credential id"), confirm: z.boolean().optional() });

/**
 * Deletes a credential (admins only); refused (naming them) while active automations use it, and
 * while an alert rule sends through it unless `confirm`.
 */
export const deleteCredentialAction = action({ role: "admin", input }, async ({ id, confirm }, caller) => {
  await deleteCredential(caller, id, { confirm });
  refresh();
  return { id };
});
