"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { action } from "@/lib/actions/action";
import { repairConnectionSubscriptions } from "@/lib/connections/store";

const input = z.object({ id: z.uuid("that is not a connection id") });

/** Creates a Shopify connection's missing webhook subscriptions again (issue 52). */
export const repairWebhooksAction = action({ role: "editor", input }, async ({ id }, caller) => {
  const result = await repairConnectionSubscriptions(caller, id);
  refresh();
  return result;
});
