"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { action } from "@/lib/actions/action";
import { createApiKey } from "@/lib/auth/api-keys";
import { ROLES } from "@/lib/identity/roles";

const input = z.object({
  name: z.string().trim().min(1, "give the key a name, such as the app that will use it").max(100),
  role: z.enum(ROLES, "choose admin, editor or viewer"),
});

/** Creates a tenant API key and hands the full key back once; only its hash is stored. */
export const createApiKeyAction = action({ role: "admin", input }, async ({ name, role }, caller) => {
  const { key, apiKey } = await createApiKey(caller, {
    name,
    role,
    createdBy: caller.actor.kind === "user" ? caller.actor.userId : null,
  });
  refresh();
  return { key, id: apiKey.id, name: apiKey.name, role: apiKey.role };
});
