"use server";

import { z } from "zod";
import { action } from "@/lib/actions/action";
import { listFires } from "@/lib/automations/schedules/manage";

const input = z.object({
  id: z.string().min(1).max(200),
  limit: z.number().int().min(1).max(50).default(10),
});

/** A scheduled automation's recent fires, including missed ones with the reason. */
export const listScheduleFiresAction = action({ role: "viewer", input }, async ({ id, limit }, caller) =>
  listFires(caller.tenant.id, id, { limit }),
);
