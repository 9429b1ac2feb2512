import type { Task } from "graphile-worker";
import { RunBatcher } from "@/lib/automations/engine/batcher";
import { runLegs } from "@/lib/automations/engine/pipeline";
import { taskPayloads } from "@/lib/jobs";

const batcher = new RunBatcher((runIds, release, jobIds, light) =>
  runLegs(
    runIds.map((runId) => ({ kind: "start", runId, jobId: jobIds.get(runId) })),
    release,
    { light },
  ),
);

/** Runs the first leg of a run, together with the runs starting alongside it. */
export const automationExecute: Task = async (payload, helpers) => {
  const { runId, tenantId, weight } = taskPayloads.automation_execute.parse(payload);
  await batcher.submit(runId, helpers.job.id, tenantId, weight);
};
