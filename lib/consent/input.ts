import { z } from "zod";

/** `POST /api/v1/customers/{id}/resubscribe`: the reason is required (it is audited). */
export const resubscribeInput = z.strictObject({
  reason: z
    .string({ error: "Say why the customer is subscribed again." })
    .trim()
    .min(3, "Say why the customer is subscribed again (at least 3 characters).")
    .max(500, "The reason is longer than 500 characters."),
});
