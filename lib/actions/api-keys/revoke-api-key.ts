"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { action } from "@/lib/actions/action";
import { revokeApiKey } from "@/lib/auth/api-keys";

const input = z.object({ id: z.uuid("that is not an API key id") });

/** Revokes a key at once: the next request that presents it gets a 401. */
export const revokeApiKeyAction = action({ role: "admin", input }, async ({ id }, caller) => {
  await revokeApiKey(caller, id);
  refresh();
  return { id };
});
