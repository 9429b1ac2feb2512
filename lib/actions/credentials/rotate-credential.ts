"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { action } from "@/lib/actions/action";
import { rotateCredential } from "@/lib/credentials/store";

const input = z.object({
  id: z.uuid("that is not a credential id"),
  value: z.string(),
});

/** Replaces a credential's value: every flow using it sends the new one from its next step on. */
export const rotateCredentialAction = action({ role: "editor", input }, async ({ id, value }, caller) => {
  const { name, last4, rotatedAt } = await rotateCredential(caller, id, { value });
  refresh();
  return { id, name, last4, rotatedAt };
});
