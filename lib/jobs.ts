import { z } from "zod";

/**
 * Every graphile-worker task, with the schema of its payload. Names contain no dots (crontab
 * task identifiers cannot). The worker's task map is typed as a complete record over these names,
 * so adding a task here without a handler in `worker/tasks/` is a type error.
 */
export const taskPayloads = {
  /** Every minute: releases the jobs of workers that died without saying goodbye. */
  worker_sweep: z.object({}).passthrough(),
} as const;

export type TaskName = keyof typeof taskPayloads;
export type TaskPayload<T extends TaskName> = z.infer<(typeof taskPayloads)[T]>;

/** The worker's crontab: graphile-worker's syntax, one task a line. */
export const CRONTAB = ["* * * * * worker_sweep ?max=1"].join("\n");
