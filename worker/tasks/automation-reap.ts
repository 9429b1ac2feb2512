import type { Task } from "graphile-worker";
import { reapRuns } from "@/lib/automations/engine/reap";

/** Every 5 minutes: fail lost runs, re-enqueue orphaned queued ones. */
export const automationReap: Task = async (_payload, helpers) => {
  const { failed, requeued } = await reapRuns();
  if (failed || requeued)
    helpers.logger.warn(`Reaper failed ${failed} stuck run(s) and re-enqueued ${requeued} orphaned run(s).`);
};
