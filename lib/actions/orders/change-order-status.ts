"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { action } from "@/lib/actions/action";
import { actorLabel } from "@/lib/identity/caller";
import { orderStatuses } from "@/lib/domains/domains";
import { changeStatus } from "@/lib/entities/service";

const input = z.object({
  id: z.string().min(1).max(200),
  status: z.enum(orderStatuses, "choose one of the order statuses"),
});

/**
 * Changes an order's status as the signed-in person. The upsert records `order.status_changed`
 * (and `order.paid` etc.), so automations listening for it start; the page refreshes to show both.
 */
export const changeOrderStatusAction = action({ role: "editor", input }, async ({ id, status }, caller) => {
  const result = await changeStatus(caller.tenant.id, "order", id, status, actorLabel(caller.actor));
  refresh();
  return { status, changed: result.events.length > 0 };
});
