"use server";

import { refresh } from "next/cache";
import { action } from "@/lib/actions/action";
import { createConnection, createConnectionInput } from "@/lib/connections/store";

/** Connects a store; the reply has its URL to paste and the secret's last 4 characters, never the secret. */
export const createConnectionAction = action(
  { role: "editor", input: createConnectionInput },
  async (input, caller) => {
    const connection = await createConnection(caller, input);
    refresh();
    return connection;
  },
);
