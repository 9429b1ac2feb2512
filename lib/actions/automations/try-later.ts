"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { action } from "@/lib/actions/action";
import { tryLater } from "@/lib/automations/runs/try-later";

// `then` is checked by `tryLater` itself (an object of at most 16 KB), as for the REST route.
const input = z.object({ id: z.string().min(1).max(200), step: z.string().max(100), then: z.unknown() });

/** "Try it later…": runs a Later trigger's step now, as if it had come due; answers the new run's id. */
export const tryLaterAction = action({ role: "editor", input }, async ({ id, step, then }, caller) => {
  const { run } = await tryLater(caller, id, then === undefined ? { step } : { step, then });
  refresh();
  return { runId: run.id };
});
