"use server";

import { z } from "zod";
import { action } from "@/lib/actions/action";
import { listVersions } from "@/lib/automations/lifecycle/versions";

const input = z.object({ id: z.string().min(1).max(200) });

/** Every published version of one automation, newest first, with its graph, note and author. */
export const listVersionsAction = action({ role: "viewer", input }, async ({ id }, caller) =>
  listVersions(caller.tenant.id, id),
);
