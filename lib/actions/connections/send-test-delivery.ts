"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { action } from "@/lib/actions/action";
import { sendTestDelivery } from "@/lib/connections/test-delivery";

const input = z.object({
  id: z.uuid("that is not a connection id"),
  /** "Also run my automations": without it the test order starts none. */
  runAutomations: z.boolean("must be true or false").optional(),
});

/** Posts a signed sample order, marked as a test, through the connection's real URL. */
export const sendTestDeliveryAction = action(
  { role: "editor", input },
  async ({ id, runAutomations }, caller) => {
    const sent = await sendTestDelivery(caller, id, { runAutomations });
    refresh();
    return sent;
  },
);
