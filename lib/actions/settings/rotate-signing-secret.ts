"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { action } from "@/lib/actions/action";
import { rotateSigningSecret } from "@/lib/credentials/signing-secret";

/** Admin-only: replaces the shop's signing secret and hands the new one back once. */
export const rotateSigningSecretAction = action({ role: "admin", input: z.object({}) }, async (_, caller) => {
  const rotated = await rotateSigningSecret(caller);
  refresh();
  return rotated;
});
