"use server";

import { z } from "zod";
import { action } from "@/lib/actions/action";
import { attributePaths } from "@/lib/entities/attribute-paths";

const input = z.object({
  domain: z.string().min(1, "choose a kind of record").max(50),
});

/**
 * What this shop's latest records of a domain carry under `attributes` (what the store sent besides
 * the known fields), for the field picker: each path with its type, how many records have it and
 * an example. Reading only, so every member may ask, viewers included.
 */
export const listAttributePathsAction = action({ role: "viewer", input }, async ({ domain }, caller) =>
  attributePaths(caller.tenant.id, domain),
);
