"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { action } from "@/lib/actions/action";
import { connectionWritesInput, setConnectionWrites } from "@/lib/connections/store";

const input = z.object({
  id: z.uuid("that is not a connection id"),
  writes: connectionWritesInput,
});

/**
 * Adds (or replaces) a connection's Admin API token or REST key and registers its webhooks; the
 * reply has the key's last 4 characters, never the key.
 */
export const setConnectionWritesAction = action({ role: "editor", input }, async ({ id, writes }, caller) => {
  const connection = await setConnectionWrites(caller, id, writes);
  refresh();
  return connection;
});
