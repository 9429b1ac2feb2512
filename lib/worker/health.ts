import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { databaseReachable } from "@/lib/db/reachability";
import { workerStatus, type WorkerStatus } from "@/lib/worker/heartbeat";

export interface Health {
  ok: boolean;
  db: boolean;
  worker: boolean;
  workerDetail: WorkerStatus | null;
}

/** Reports whether the database answers and a worker has beaten recently. */
export async function checkHealth(): Promise<Health> {
  const down = { ok: false, db: false, worker: false, workerDetail: null };
  // The web server's watch already knows (lib/db/reachability.ts): answer at once, not after a hang.
  if (!databaseReachable()) return down;
  try {
    await getDb().execute(sql`select 1`);
  } catch {
    return down;
  }
  const detail = await workerStatus();
  return { ok: detail.alive, db: true, worker: detail.alive, workerDetail: detail };
}
