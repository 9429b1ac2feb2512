"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { action } from "@/lib/actions/action";
import { resubscribe } from "@/lib/consent/store";

const input = z.object({ customerId: z.string().min(1).max(200), reason: z.string().max(1000) });

/** Subscribes a customer to marketing again (editors and admins), with a reason; audited. */
export const resubscribeAction = action({ role: "editor", input }, async ({ customerId, reason }, caller) => {
  await resubscribe(caller, customerId, { reason });
  refresh();
  return { customerId };
});
