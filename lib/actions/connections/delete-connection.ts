"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { action } from "@/lib/actions/action";
import { deleteConnection } from "@/lib/connections/store";

const input = z.object({ id: z.uuid("that is not a connection id") });

/** Disconnects a store: its URL stops answering; its secret and deliveries are deleted. */
export const deleteConnectionAction = action({ role: "editor", input }, async ({ id }, caller) => {
  await deleteConnection(caller, id);
  refresh();
  return { id };
});
