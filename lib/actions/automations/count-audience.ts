"use server";

import { z } from "zod";
import { action } from "@/lib/actions/action";
import { audienceSchema } from "@/lib/automations/nodes/triggers/triggers";
import { audienceSize } from "@/lib/automations/schedules/audience";
import { getDb } from "@/lib/db/client";

const input = z.object({ audience: audienceSchema });

/** How many of the shop's customers a schedule's audience matches right now (shown before publishing). */
export const countAudienceAction = action({ role: "viewer", input }, async ({ audience }, caller) => ({
  size: await audienceSize(getDb(), caller.tenant.id, audience),
}));
