import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { workerStatus, type WorkerStatus } from "@/lib/worker/heartbeat";

export interface Health {
  ok: boolean;
  db: boolean;
  worker: boolean;
  workerDetail: WorkerStatus | null;
}

/** Reports whether the database answers and a worker has beaten recently. */
export async function checkHealth(): Promise<Health> {
  try {
    await getDb().execute(sql`select 1`);
  } catch {
    return { ok: false, db: false, worker: false, workerDetail: null };
  }
  const detail = await workerStatus();
  return { ok: detail.alive, db: true, worker: detail.alive, workerDetail: detail };
}
