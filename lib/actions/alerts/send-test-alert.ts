"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { action } from "@/lib/actions/action";
import { sendTestAlert } from "@/lib/alerts/test-alert";

const input = z.object({ id: z.uuid("that is not an alert id") });

/** Sends one test alert through the rule's channel now; it shows in the history like a real one. */
export const sendTestAlertAction = action({ role: "admin", input }, async ({ id }, caller) => {
  const sent = await sendTestAlert(caller, id);
  refresh();
  return sent;
});
