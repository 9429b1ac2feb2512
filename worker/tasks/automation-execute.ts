import type { Task } from "graphile-worker";
import { RunBatcher } from "@/lib/automations/engine/batcher";
import { executeRun } from "@/lib/automations/engine/execute";
import { soloLimit } from "@/lib/automations/engine/limits";
import { executeRunBatch } from "@/lib/automations/engine/execute-batch";
import { taskPayloads } from "@/lib/jobs";

const batcher = new RunBatcher(executeRunBatch);

/** Runs the first leg of a run: batched with the runs starting alongside it, or alone when it must. */
export const automationExecute: Task = async (payload) => {
  const { runId } = taskPayloads.automation_execute.parse(payload);
  if ((await batcher.submit(runId)) === "alone") await soloLimit(() => executeRun(runId));
};
