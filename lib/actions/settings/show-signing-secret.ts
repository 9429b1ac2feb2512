"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { action } from "@/lib/actions/action";
import { showSigningSecret } from "@/lib/credentials/signing-secret";

/** Admin-only: the shop's signing secret in full, once (Settings → Shop → Signing secret). */
export const showSigningSecretAction = action({ role: "admin", input: z.object({}) }, async (_, caller) => {
  const shown = await showSigningSecret(caller);
  refresh();
  return shown;
});
