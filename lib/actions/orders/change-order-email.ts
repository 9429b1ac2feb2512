"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { action } from "@/lib/actions/action";
import { actorLabel } from "@/lib/identity/caller";
import { patchEntity } from "@/lib/entities/service";

const input = z.object({
  id: z.string().min(1).max(200),
  email: z
    .email("Enter an email address such as ana@example.com.")
    .max(320, "That email address is too long."),
});

/**
 * Corrects the email an order was placed with, as the signed-in person: the same merge as an API
 * PATCH (validated against the order's fields, recorded in its history).
 */
export const changeOrderEmailAction = action({ role: "editor", input }, async ({ id, email }, caller) => {
  await patchEntity(caller.tenant.id, "order", id, { email }, actorLabel(caller.actor));
  refresh();
  return { email };
});
