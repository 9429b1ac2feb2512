"use server";

import { z } from "zod";
import { action } from "@/lib/actions/action";
import { entityOptions } from "@/lib/entities/options";

const input = z.object({
  domain: z.string().min(1, "choose a kind of record").max(50),
  query: z.string().max(200, "the search is longer than 200 characters").optional(),
  limit: z.number().int().min(1).max(50).optional(),
});

/**
 * Records of one domain for a picker (the dry run's "try it on…"): `{ id, label }`, most recently
 * changed first. Reading only, so every member may search, viewers included.
 */
export const searchEntitiesAction = action(
  { role: "viewer", input },
  async ({ domain, query, limit }, caller) => entityOptions(caller.tenant.id, domain, query, limit),
);
