import type { Task } from "graphile-worker";
import { sweepSilentWorkers } from "@/lib/worker/heartbeat";

/**
 * Every minute, a backstop for the sweep each worker runs every few seconds (worker/run.ts):
 * releases the jobs of dead workers so a killed worker's runs re-run quickly.
 */
export const workerSweep: Task = async (_payload, helpers) => {
  const swept = await sweepSilentWorkers(async (lockIds) => {
    if (lockIds.length === 0) return;
    await helpers.withPgClient((client) =>
      client.query("select graphile_worker.force_unlock_workers($1::text[])", [lockIds]),
    );
  });
  if (swept.length > 0) helpers.logger.warn(`Released the jobs of silent workers: ${swept.join(", ")}`);
};
