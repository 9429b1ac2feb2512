import type { Task } from "graphile-worker";
import { reapRuns } from "@/lib/automations/engine/reap";
import { ensureRunPartitions } from "@/lib/automations/store/partitions";

/**
 * Every 5 minutes: fail lost runs, re-enqueue orphaned queued ones, and make sure run history
 * has this month's and next month's partitions (a run id of a month without one cannot be stored).
 */
export const automationReap: Task = async (_payload, helpers) => {
  const made = await ensureRunPartitions();
  if (made) helpers.logger.info(`Made run history partitions for ${made} month(s).`);
  const { failed, requeued } = await reapRuns();
  if (failed || requeued)
    helpers.logger.warn(`Reaper failed ${failed} stuck run(s) and re-enqueued ${requeued} orphaned run(s).`);
};
