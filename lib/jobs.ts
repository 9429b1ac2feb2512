import { sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "@/lib/db/client";
import { config } from "@/lib/config/config";
import type { Config } from "@/lib/config/env";
import { BACKLOG_PRIORITY, DUE_PRIORITY, fairTagsSql, MAINTENANCE_PRIORITY } from "@/lib/queue/fair-share";

/** The shop whose backlog a job is part of (lib/queue/fair-share.ts); absent on jobs queued before fair share. */
const shop = z.uuid().optional();
/** That shop's fair-share weight when the job was queued (the worker's batches take legs by it). */
const weight = z.number().int().min(1).max(100).optional();

/**
 * Every graphile-worker task, with the schema of its payload. Names contain no dots (crontab
 * task identifiers cannot). The worker's task map is typed as a complete record over these names,
 * so adding a task here without a handler in `worker/tasks/` is a type error.
 */
export const taskPayloads = {
  /** Every minute: releases the jobs of workers that died without saying goodbye. */
  worker_sweep: z.object({}).passthrough(),
  /** Every 5 minutes: fails runs stuck in `running`, re-enqueues queued runs whose job is missing. */
  automation_reap: z.object({}).passthrough(),
  /** Runs the first leg of a run. */
  automation_execute: z.strictObject({ runId: z.uuid(), tenantId: shop, weight }),
  /** Resumes a run at a wait when its time has come (job_key = the wait's id). */
  automation_resume: z.strictObject({ waitId: z.uuid() }),
  /** Starts the run a `later` step asked for, when it comes due (job_key = the wait's id). */
  automation_later: z.strictObject({ waitId: z.uuid() }),
  /**
   * Every minute: fires due schedules (claims each fire time once, advances `next_fire_at`, records
   * missed ones) and re-creates missing built-in automations.
   */
  schedule_tick: z.object({}).passthrough(),
  /** Creates the runs of one schedule fire, in batches (job_key `fire:<fireId>`). */
  schedule_fanout: z.strictObject({ fireId: z.uuid(), tenantId: shop, weight }),
  /** Sends one outbox email through SMTP (only enqueued when SMTP_URL is set). */
  email_send: z.strictObject({ outboxId: z.uuid() }),
  /** Applies one webhook a connected store posted (lib/connections/process.ts). */
  connection_delivery: z.strictObject({ deliveryId: z.uuid(), tenantId: shop, weight }),
  /**
   * Pauses an automation with `pauseOnStorm` whose hourly cap held a run (job_key
   * `storm:<automationId>`, added where the run was held; lifecycle/pause-on-storm.ts).
   */
  automation_storm: z.strictObject({ automationId: z.uuid() }),
  /** Daily: deletes store deliveries older than 30 days (lib/connections/prune.ts). */
  connection_prune: z.object({}).passthrough(),
  /**
   * Every minute: reminds the approvers of approvals nobody has decided, then tells the shop's
   * admins, once each (lib/automations/waits/reminders.ts).
   */
  approval_remind: z.object({}).passthrough(),
  /** Every minute: finds what the shops' alert rules should say now and keeps it (lib/alerts/evaluate.ts). */
  alert_evaluate: z.object({}).passthrough(),
  /** Sends one kept alert through its rule's channel (job_key `alert:<id>`; lib/alerts/send.ts). */
  alert_send: z.strictObject({ alertId: z.uuid() }),
} as const;

export type TaskName = keyof typeof taskPayloads;

/** The tasks that are a shop's backlog work, tagged for fair share (lib/queue/fair-share.ts). */
const BACKLOG_TASKS = ["automation_execute", "connection_delivery", "schedule_fanout"] as const;
export type BacklogTask = (typeof BACKLOG_TASKS)[number];

export function isBacklogTask(task: TaskName): task is BacklogTask {
  return (BACKLOG_TASKS as readonly TaskName[]).includes(task);
}

export type TaskPayload<T extends TaskName> = z.infer<(typeof taskPayloads)[T]>;

/**
 * The worker's crontab: graphile-worker's syntax, one task a line. Every item runs at
 * MAINTENANCE_PRIORITY (-2): ahead of any shop's backlog (lib/queue/fair-share.ts).
 */
const MAINTENANCE = [
  `* * * * * worker_sweep ?max=1&priority=${MAINTENANCE_PRIORITY}`,
  `*/5 * * * * automation_reap ?max=1&priority=${MAINTENANCE_PRIORITY}`,
  `17 3 * * * connection_prune ?max=1&priority=${MAINTENANCE_PRIORITY}`,
  // Not a schedule: an approval's reminder is due whether or not schedules are on.
  `* * * * * approval_remind ?max=1&priority=${MAINTENANCE_PRIORITY}`,
  // Alerts watch the engine itself (failures, silence, storms), so they tick whatever schedules do.
  `* * * * * alert_evaluate ?max=1&priority=${MAINTENANCE_PRIORITY}`,
];
// The schedules' heartbeat. No backfill: due fire times are read from `next_fire_at`, so the
// first tick after a restart catches up by itself (see schedules/tick.ts for what still runs).
const HEARTBEAT = `* * * * * schedule_tick ?max=1&priority=${MAINTENANCE_PRIORITY}`;

const CRONTAB = [...MAINTENANCE, HEARTBEAT].join("\n");

/**
 * The worker's crontab. `TILLFLOW_SCHEDULES=off` leaves out the schedules' heartbeat: the browser
 * tests assert exact run lists, and the demo's built-ins would otherwise fire on the quarter hour
 * in the middle of them. Schedules are tested with the real heartbeat in tests/schedules/.
 */
export function crontabFor(settings: Pick<Config, "TILLFLOW_SCHEDULES"> = config()): string {
  return settings.TILLFLOW_SCHEDULES ? CRONTAB : MAINTENANCE.join("\n");
}

/**
 * Attempts before graphile-worker gives a job up. A worker killed mid-batch costs an attempt to
 * every job it had locked (its local queue, up to a thousand), though none of them ran: the leg
 * jobs, whose work is claimed in the database and replayed safely, get many more so that a run of
 * crashes never exhausts them (the chaos suite kills a worker a dozen times). Others: 5.
 */
const MAX_ATTEMPTS: Partial<Record<TaskName, number>> = {
  automation_execute: 25,
  automation_resume: 25,
  automation_later: 25,
  schedule_fanout: 25,
  connection_delivery: 25,
};

const maxAttempts = (task: TaskName) => MAX_ATTEMPTS[task] ?? 5;

/**
 * Two CTEs that add one `task` job per row of `source` (a query yielding `payload json` and
 * `key text`) straight into graphile-worker's jobs table, then NOTIFY once, so idle workers fetch
 * at once: `<name>_added` (the jobs) and `<name>` (one row when any was added). The statement must
 * read `<name>`: a CTE that only reads runs only when something reads it.
 *
 * Only for keys that cannot exist yet: the jobs of rows the same statement inserted. For a new key
 * that is all `add_jobs` does, without the rest of it — its plpgsql, its upserts of the task and
 * the queue, and its update of running jobs with the same keys, which plans as a scan of the whole
 * jobs table (1.8 ms per call once 20,000 waits' jobs are queued, in `bench -- live`). The task's
 * row must exist (`tillflow migrate` makes every task's); without it the statement fails on the
 * jobs' not-null `task_id` and writes nothing.
 */
/** How long a due job has waited when a "when-idle" insert stops notifying (see freshJobsSql). */
const WAITING_MS = 20;

export function freshJobsSql(
  name: string,
  task: BacklogTask,
  tenantId: string,
  source: SQL,
  { wake = "always" }: { wake?: "always" | "when-idle" } = {},
): SQL {
  const added = sql.raw(`${name}_added`);
  // "when-idle": no NOTIFY while a job has been due and waiting for a while (WAITING_MS): the
  // workers are behind and fetch again as their jobs end, so they reach these too. A NOTIFY holds
  // a database-wide lock from its commit's start to its end, so a steady stream of small notifying
  // transactions has its commits serialised (`bench -- connect`: 468 deliveries/s accepted with
  // it, 692 without). A queue the workers keep up with has no such job: it notifies as always.
  // A backlog job's `run_at` is its tag, in the past: its `created_at` says when it came.
  const idle =
    wake === "when-idle"
      ? sql` and not exists (
          select 1 from graphile_worker._private_jobs j
          where j.is_available and j.run_at <= now()
            and greatest(j.run_at, j.created_at) <= now() - make_interval(secs => ${WAITING_MS / 1000}))`
      : sql``;
  // Tagged for fair share (lib/queue/fair-share.ts): the n-th row one slot after the (n-1)-th.
  return sql`${added} as (
      insert into graphile_worker._private_jobs (task_id, payload, max_attempts, key, run_at, priority)
      select (select t.id from graphile_worker._private_tasks t where t.identifier = ${task}::text),
             (s.payload::jsonb || jsonb_build_object('tenantId', ${tenantId}::text, 'weight', fair.weight))::json,
             ${maxAttempts(task)}::smallint, s.key,
             fair.start + (row_number() over () - 1) * fair.slot, ${BACKLOG_PRIORITY}::smallint
      from (${source}) s, ${fairTagsSql(sql`${tenantId}::text`)} fair
      returning 1
    ),
    ${sql.raw(name)} as (
      select pg_notify('jobs:insert', '{"count":' || count(*) || '}') from ${added} having count(*) > 0${idle}
    )`;
}

export interface JobSpec<T extends TaskName = TaskName> {
  task: T;
  payload: TaskPayload<T>;
  runAt?: Date;
  /** Replaces a pending job with the same key instead of adding a second one. */
  jobKey?: string;
  maxAttempts?: number;
  /** The shop whose backlog this is: required for backlog tasks, which are tagged for fair share. */
  tenantId?: string;
}

/**
 * Adds jobs inside the caller's transaction (one round trip for any number), so a row and the job
 * that will act on it commit together or not at all. Throws if graphile-worker refuses.
 * Backlog tasks get their shop's fair-share tags (lib/queue/fair-share.ts), one slot apart in
 * order; every other job is due work, served before any backlog at its `runAt` (default now).
 */
export async function enqueueJobs(tx: DbOrTx, jobs: JobSpec[]): Promise<void> {
  if (jobs.length === 0) return;
  const nth = new Map<string, number>();
  const specs = jobs.map((job) => {
    const backlog = isBacklogTask(job.task);
    if (backlog && !job.tenantId)
      throw new Error(`A ${job.task} job needs its shop (tenantId) for fair share.`);
    const tagged = backlog && !job.runAt;
    const n = tagged ? (nth.get(job.tenantId!) ?? 0) + 1 : null;
    if (n) nth.set(job.tenantId!, n);
    return {
      identifier: job.task,
      payload: backlog ? { ...job.payload, tenantId: job.tenantId } : job.payload,
      run_at: job.runAt?.toISOString() ?? null,
      max_attempts: job.maxAttempts ?? maxAttempts(job.task),
      job_key: job.jobKey ?? null,
      priority: backlog ? BACKLOG_PRIORITY : DUE_PRIORITY,
      tenant_id: tagged ? job.tenantId : null,
      nth: n,
    };
  });
  await tx.execute(sql`
    with x as (
      select * from json_to_recordset(${JSON.stringify(specs)}::json)
        as x(identifier text, payload json, run_at timestamptz, max_attempts int, job_key text,
             priority int, tenant_id text, nth int)
    ), fair as (
      select s.tenant_id, f.start, f.slot, f.weight
      from (select distinct tenant_id from x where tenant_id is not null) s,
        lateral ${fairTagsSql(sql`s.tenant_id`)} f
    )
    select graphile_worker.add_jobs(array(
      select (x.identifier,
              case when fair.weight is null then x.payload
                   else (x.payload::jsonb || jsonb_build_object('weight', fair.weight))::json end,
              null, coalesce(x.run_at, fair.start + (x.nth - 1) * fair.slot),
              x.max_attempts, x.job_key, x.priority, null)::graphile_worker.job_spec
      from x left join fair on fair.tenant_id = x.tenant_id
    ))`);
}
