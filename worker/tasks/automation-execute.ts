import type { Task } from "graphile-worker";
import { executeRun } from "@/lib/automations/engine/execute";
import { taskPayloads } from "@/lib/jobs";

/** Runs the first leg of a run. */
export const automationExecute: Task = async (payload) => {
  const { runId } = taskPayloads.automation_execute.parse(payload);
  await executeRun(runId);
};
