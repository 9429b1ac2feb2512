/**
 * `npm run bench -- floor`: what Postgres spends on work that arrives one piece at a time, with
 * nothing of the engine in it — the floor under `bench -- workers`' "Postgres CPU per live event".
 * On a fresh database under `.data/bench-pg` (the demo shop's settings: commits wait for the disk):
 *
 *   commit   one row inserted in its own transaction, an open loop at BENCH_FLOOR_RATE/s: what one
 *            durable commit costs (an event's ingest is at least this);
 *   job      the same insert plus `graphile_worker.add_job` of a no-op task in that statement, run
 *            by this project's worker (`startWorker`: local queue, batched completion, its
 *            queue connections' commits asynchronous, heartbeats and the wake timer on);
 *   backlog  BENCH_FLOOR_BACKLOG no-op jobs added in one statement, parked an hour ahead while the
 *            worker starts, then released at once and drained by the same worker.
 *
 * Postgres CPU is the postmaster and its backends (bench/cpu.ts), read before and after each part
 * (the open loops: their window plus 2 s for the last jobs); reported per row or job, in ms.
 * Sizes (env): BENCH_FLOOR_RATE (100), BENCH_FLOOR_SECONDS (30), BENCH_FLOOR_BACKLOG (20000).
 */
import path from "node:path";
import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { dataRoot } from "@/lib/db/embedded";
import { startWorker, type WorkerHandle } from "@/worker/run";
import { postgresProbe } from "./cpu";
import { pendingJobs } from "./engine";
import { benchDatabase, report, waitUntil } from "./harness";
import { openLoop } from "./live-load";

const RATE = Number(process.env.BENCH_FLOOR_RATE ?? 100);
const SECONDS = Number(process.env.BENCH_FLOOR_SECONDS ?? 30);
const BACKLOG = Number(process.env.BENCH_FLOOR_BACKLOG ?? 20_000);
/** After an open loop, how long the last jobs get before CPU is read again. */
const TAIL_MS = 2_000;

const round = (n: number, digits = 3) => Number(n.toFixed(digits));

let jobsDone = 0;
const noop = { bench_floor_noop: async () => void jobsDone++ };

/** Postgres CPU seconds spent while `work` runs. */
async function postgresCpu(work: () => Promise<unknown>): Promise<number> {
  const probe = postgresProbe(path.join(dataRoot(), "bench-pg"));
  const before = probe();
  await work();
  return probe() - before;
}

/** `statement` alone, RATE times a second for SECONDS; how many were sent. */
async function openLoopOf(statement: () => Promise<unknown>): Promise<number> {
  const result = await openLoop(RATE, SECONDS * 1000, async () => {
    const started = performance.now();
    await statement();
    return { status: 200, body: "", ms: performance.now() - started };
  });
  await new Promise((r) => setTimeout(r, TAIL_MS));
  if (result.failed > 0) throw new Error(`${result.failed} statements failed.`);
  return result.done;
}

const insertRow = () => getDb().execute(sql`insert into bench_floor_rows default values`);
const insertRowAndJob = () =>
  getDb().execute(sql`
    with r as (insert into bench_floor_rows default values returning id)
    select graphile_worker.add_job('bench_floor_noop', json_build_object('id', (select id from r)))`);

export async function benchFloor(): Promise<void> {
  const db = await benchDatabase("floor");
  let worker: WorkerHandle | null = null;
  try {
    await getDb().execute(
      sql`create table bench_floor_rows (id bigserial primary key, at timestamptz default now())`,
    );
    // Warm: the connections open and the statements prepared before anything is measured.
    for (let i = 0; i < 50; i++) await insertRow();
    console.log(`commit: a one-row transaction, ${RATE}/s for ${SECONDS}s…`);
    let commits = 0;
    const commitCpu = await postgresCpu(async () => (commits = await openLoopOf(insertRow)));

    await getDb().execute(sql`
      select graphile_worker.add_jobs(array(
        select ('bench_floor_noop', '{}'::json, null, now() + interval '1 hour', 1, null, null, null)::graphile_worker.job_spec
        from generate_series(1, ${BACKLOG})))`);
    worker = await startWorker({ connectionString: db.url, crontab: false, extraTasks: noop });
    await new Promise((r) => setTimeout(r, 2_000));
    console.log(`backlog: ${BACKLOG} no-op jobs released at once…`);
    const backlogCpu = await postgresCpu(async () => {
      await getDb().execute(sql`update graphile_worker._private_jobs set run_at = now()`);
      await waitUntil(async () => (await pendingJobs()) === 0, 300_000, 20);
    });

    for (let i = 0; i < 50; i++) await insertRowAndJob();
    await waitUntil(async () => (await pendingJobs()) === 0, 30_000, 20);
    console.log(`job: a row and a no-op job in one statement, ${RATE}/s for ${SECONDS}s…`);
    const doneBefore = jobsDone;
    let jobs = 0;
    const jobCpu = await postgresCpu(async () => (jobs = await openLoopOf(insertRowAndJob)));
    if (jobsDone - doneBefore < jobs) throw new Error(`Only ${jobsDone - doneBefore} of ${jobs} jobs ran.`);

    const perJobBacklog = (backlogCpu * 1000) / BACKLOG;
    const perJobAlone = (jobCpu * 1000) / jobs;
    report("floor", {
      rate: RATE,
      seconds: SECONDS,
      postgresMsPerCommit: round((commitCpu * 1000) / commits),
      postgresMsPerJobAlone: round(perJobAlone),
      backlogJobs: BACKLOG,
      postgresMsPerJobInBacklog: round(perJobBacklog),
      ratioAloneToBacklog: round(perJobAlone / perJobBacklog, 1),
    });
  } finally {
    await worker?.stop();
    await db.drop();
  }
}
