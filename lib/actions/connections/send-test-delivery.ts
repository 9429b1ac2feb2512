"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { action } from "@/lib/actions/action";
import { sendTestDelivery } from "@/lib/connections/test-delivery";

const input = z.object({ id: z.uuid("that is not a connection id") });

/** Posts a signed sample order through the connection's real URL. */
export const sendTestDeliveryAction = action({ role: "editor", input }, async ({ id }, caller) => {
  const sent = await sendTestDelivery(caller, id);
  refresh();
  return sent;
});
