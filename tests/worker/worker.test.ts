import { sql } from "drizzle-orm";
import { afterAll, expect, test } from "vitest";
import { GET as health } from "@/app/api/health/route";
import { getDb } from "@/lib/db/client";
import { workerHeartbeats } from "@/lib/db/schema";
import { sweepSilentWorkers } from "@/lib/worker/heartbeat";
import type { WorkerHandle } from "@/worker/run";
import { startTestWorker } from "@/tests/helpers/worker";

interface HealthReply {
  ok: boolean;
  db: boolean;
  worker: boolean;
}

let worker: WorkerHandle | null = null;
afterAll(async () => {
  await worker?.stop();
});

async function readHealth(query = ""): Promise<{ status: number; body: HealthReply }> {
  const res = await health(new Request(`http://localhost/api/health${query}`));
  return { status: res.status, body: (await res.json()) as HealthReply };
}

test("health reports the worker only while one is running", async () => {
  expect(await readHealth()).toEqual({
    status: 503,
    body: expect.objectContaining({ ok: false, db: true, worker: false }),
  });
  // The web server's own check passes without a worker (compose's and a load balancer's probe).
  expect(await readHealth("?scope=web")).toEqual({
    status: 200,
    body: expect.objectContaining({ ok: false, db: true, worker: false }),
  });

  worker = await startTestWorker();
  expect(await readHealth()).toEqual({
    status: 200,
    body: expect.objectContaining({ ok: true, db: true, worker: true }),
  });

  // The heartbeat records the ids graphile-worker locks jobs with, so a sweeper can release them.
  const [row] = await getDb()
    .select()
    .from(workerHeartbeats)
    .where(sql`${workerHeartbeats.workerId} = ${worker.workerId}`);
  expect(row!.lockIds.length).toBeGreaterThan(0);

  await worker.stop();
  worker = null;
  expect((await readHealth()).body.worker).toBe(false);
});

test("the worker_sweep task releases the jobs of a worker that went silent, and leaves live workers alone", async () => {
  const db = getDb();
  // Jobs of a task this worker does not run, so only the sweeper touches them.
  for (const key of ["locked-by-dead", "locked-by-live"]) {
    await db.execute(sql`select graphile_worker.add_job('not_ours', '{}'::json, job_key := ${key})`);
  }
  await db.execute(sql`update graphile_worker._private_jobs set locked_by = 'dead-pool', locked_at = now()
                       where key = 'locked-by-dead'`);
  await db.execute(sql`update graphile_worker._private_jobs set locked_by = 'live-pool', locked_at = now()
                       where key = 'locked-by-live'`);
  await db.insert(workerHeartbeats).values([
    {
      workerId: "dead",
      hostname: "h",
      pid: 1,
      lockIds: ["dead-pool"],
      lastSeenAt: new Date(Date.now() - 120_000),
    },
    { workerId: "live", hostname: "h", pid: 2, lockIds: ["live-pool"], lastSeenAt: new Date() },
  ]);

  worker = await startTestWorker();
  await db.execute(sql`select graphile_worker.add_job('worker_sweep', '{}'::json)`);

  const lockedBy = async () =>
    (
      await db.execute<{ key: string; locked_by: string | null }>(
        sql`select key, locked_by from graphile_worker._private_jobs where key like 'locked-by-%' order by key`,
      )
    ).map((j) => [j.key, j.locked_by]);
  await expect.poll(lockedBy, { timeout: 10_000 }).toEqual([
    ["locked-by-dead", null],
    ["locked-by-live", "live-pool"],
  ]);
  const [dead] = await db
    .select()
    .from(workerHeartbeats)
    .where(sql`${workerHeartbeats.workerId} = 'dead'`);
  expect(dead!.stoppedAt).not.toBeNull();
  // A second sweep finds nothing new: the dead worker is marked stopped.
  expect(await sweepSilentWorkers(async () => {})).toEqual([]);
});
