import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { messageOf } from "@/lib/errors";
import { log } from "@/lib/log/logger";

/**
 * Terminology
 * - due soon: a pending wait (not a `later`) whose `resume_at` falls within the look-ahead.
 * - held job: the `automation_resume` job of a wait due soon, locked by this timer ahead of time.
 * - wake: one in-memory timer for one due instant; waits due within `granularityMs` of each other
 *   share it, so a storm of waits costs a few statements, not one each.
 * - timer lock id: the `locked_by` the timer writes on the jobs it holds. The worker's heartbeat
 *   reports it, so the sweeper releases those jobs if this process dies.
 *
 * Why: graphile-worker finds due jobs by polling, so a wait resumes up to a poll (and a fetch of
 * thousands) after its time. The waits due soon are known in advance — they are rows — so the
 * timer takes their jobs ahead and resumes the waits at the due instant itself. The job stays
 * the durable backstop: the timer only runs jobs it managed to lock (one that graphile-worker or
 * another worker holds is skipped), deletes them when done, and gives them back on an error or
 * a stop, so graphile-worker runs them as usual. Nothing is lost by a timer that never fires.
 *
 * Jobs are locked when first seen, up to the look-ahead before they are due, not at the due
 * instant: locking thousands of rows takes longer than the lateness we aim for, so it is done
 * while nothing is due. A held job is not yet due, so graphile-worker would not have run it
 * earlier anyway; if this process dies, the sweeper frees it like any job the worker held.
 */
export interface WakeTimerOptions {
  /** The `locked_by` for the jobs this timer holds; report it in the worker's heartbeat. */
  lockId: string;
  /** Resumes these waits (their jobs are held by this timer meanwhile); throws if any failed. */
  resume: (waitIds: string[]) => Promise<void>;
  /** How often to look for waits due soon, in ms. Default 1,000. */
  scanEveryMs?: number;
  /**
   * How far ahead to look, in ms. Default 2,000: twice the scan interval, so every wait is seen
   * ahead of its time even when a scan runs late.
   */
  lookaheadMs?: number;
  /** Waits due within this many ms share one wake, fired at the latest of them. Default 10. */
  granularityMs?: number;
  /**
   * Waits resumed together. Default 1,000, twice the job path's batch: a wake's batches all start
   * at the due instant, and fewer, larger ones do not queue behind each other for the pool's
   * connections (measured: 10,000 due at once start in about half the time than with 500).
   */
  batchSize?: number;
  /** Most jobs one scan locks; the rest wait for the next scan or graphile-worker. Default 20,000. */
  maxPerScan?: number;
}

interface HeldJob {
  jobId: string;
  waitId: string;
}

/** A Postgres bigint[] literal of job ids, checked to be digits (nothing else can get in). */
function jobIdArray(ids: string[]): string {
  for (const id of ids) if (!/^\d+$/.test(id)) throw new Error(`Not a job id: ${id}`);
  return `{${ids.join(",")}}`;
}

export class WakeTimer {
  readonly lockId: string;
  private readonly resume: (waitIds: string[]) => Promise<void>;
  private readonly options: Required<Omit<WakeTimerOptions, "lockId" | "resume">>;
  /** Armed wakes by due instant (ms since the epoch), each with the jobs it will run. */
  private readonly wakes = new Map<number, { timeout: NodeJS.Timeout; jobs: HeldJob[] }>();
  /** Scans and resumes under way; stop() waits for them. */
  private readonly inFlight = new Set<Promise<void>>();
  /** Jobs still held after a failed delete or release; released again on the next scan. */
  private readonly stranded = new Set<string>();
  private scanner: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(opts: WakeTimerOptions) {
    this.lockId = opts.lockId;
    this.resume = opts.resume;
    this.options = {
      scanEveryMs: opts.scanEveryMs ?? 1_000,
      lookaheadMs: opts.lookaheadMs ?? 2_000,
      granularityMs: opts.granularityMs ?? 10,
      batchSize: opts.batchSize ?? 1000,
      maxPerScan: opts.maxPerScan ?? 20_000,
    };
  }

  /** Wakes armed and not yet fired (0 once stopped). */
  get armed(): number {
    return this.wakes.size;
  }

  start(): void {
    if (this.scanner || this.stopped) return;
    this.track(this.scan());
    this.scanner = setInterval(() => this.track(this.scan()), this.options.scanEveryMs);
    this.scanner.unref();
  }

  /** Clears every wake, gives back the jobs not yet run, and waits for the resumes under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.scanner) clearInterval(this.scanner);
    this.scanner = null;
    const unfired = [...this.wakes.values()];
    this.wakes.clear();
    for (const wake of unfired) clearTimeout(wake.timeout);
    // A scan under way may still lock jobs: it hands them back itself once it sees `stopped`.
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
    const held = unfired.flatMap((wake) => wake.jobs.map((job) => job.jobId));
    if (held.length > 0) await this.release(held, null);
    await this.releaseStranded();
  }

  private track(work: Promise<void>): void {
    const tracked = work.catch((error: unknown) =>
      log().error({ err: error }, "Wake timer failed; will retry."),
    );
    this.inFlight.add(tracked);
    void tracked.finally(() => this.inFlight.delete(tracked));
  }

  /**
   * Locks, in one statement, the available `automation_resume` jobs of the waits due soon, and arms
   * a wake for each due instant. `skip locked` and `is_available` mean a job graphile-worker or
   * another worker's timer took first is not taken again, so one wait never runs twice at once;
   * and a job this timer holds is not available, so the next scan does not see it again.
   * Attempts count as graphile-worker counts them, so a wait that kills its process every time
   * still runs out of retries.
   */
  private async scan(): Promise<void> {
    await this.releaseStranded();
    if (this.stopped) return;
    const now = Date.now();
    const until = new Date(now + this.options.lookaheadMs).toISOString();
    // Only waits still ahead: one already due is graphile-worker's, whose poll finds it anyway.
    // The waits are found by automation_run_waits_due_idx (status, resume_at), their jobs by key.
    // The look-ahead bounds each wake's instant, not run_at alone: a bare `run_at <=` lets the
    // planner take graphile-worker's run_at index instead and, on stale statistics, loop over it
    // once per wait (26 s for 10,000 in the bench).
    const rows = await getDb().execute<{ job_id: string; wait_id: string; at: number }>(sql`
      with due as (
        select w.id::text as wait_id, w.resume_at from automation_run_waits w
        where w.status = 'pending' and w.kind <> 'later'
          and w.resume_at > ${new Date(now).toISOString()}::timestamptz
          and w.resume_at <= ${until}::timestamptz
        order by w.resume_at
        limit ${this.options.maxPerScan}
      ), free as (
        select j.id, due.wait_id, greatest(j.run_at, due.resume_at) as at
        from due join graphile_worker._private_jobs j on j.key = due.wait_id
        where j.is_available and j.job_queue_id is null
          and greatest(j.run_at, due.resume_at) <= ${until}::timestamptz
          and j.task_id = (select id from graphile_worker._private_tasks where identifier = 'automation_resume')
        for update of j skip locked
      )
      update graphile_worker._private_jobs j
      set locked_by = ${this.lockId}, locked_at = now(), attempts = j.attempts + 1
      from free where j.id = free.id
      returning j.id::text as job_id, free.wait_id, (extract(epoch from free.at) * 1000)::float8 as at`);
    if (this.stopped) {
      if (rows.length > 0)
        await this.release(
          rows.map((r) => r.job_id),
          null,
        );
      return;
    }
    const g = this.options.granularityMs;
    for (const row of rows) {
      const job = { jobId: row.job_id, waitId: row.wait_id };
      // Rounded up, never down: a wait is never resumed before its time (nor its job's run_at).
      const dueAt = Math.ceil(Number(row.at) / g) * g;
      const wake = this.wakes.get(dueAt);
      if (wake) wake.jobs.push(job);
      else this.wakes.set(dueAt, { timeout: this.arm(dueAt), jobs: [job] });
    }
  }

  private arm(dueAt: number): NodeJS.Timeout {
    const timeout = setTimeout(
      () => {
        const wake = this.wakes.get(dueAt);
        if (!wake) return;
        // Node may fire a millisecond early; the due instant is a promise, not an estimate.
        if (Date.now() < dueAt) {
          wake.timeout = this.arm(dueAt);
          return;
        }
        this.wakes.delete(dueAt);
        this.track(this.fire(wake.jobs));
      },
      Math.max(0, dueAt - Date.now()),
    );
    timeout.unref();
    return timeout;
  }

  /**
   * Resumes the waits of one wake's held jobs, in batches, and completes (deletes) the jobs; a
   * batch that fails gives its jobs back instead. Only jobs still held and still keyed are run:
   * one whose key was cleared was replaced ("resume now" added a new job, which graphile-worker
   * runs) or removed (the wait was cancelled), and one no longer locked by us was freed by the
   * sweeper (our heartbeat stalled) and may be running elsewhere. That is checked once per wake,
   * not per batch, because every statement before the claims queues for the same connections.
   */
  private async fire(jobs: HeldJob[]): Promise<void> {
    let lost: { id: string }[];
    try {
      // Returns only the exceptions (usually none): cheaper than reading back every key.
      lost = await getDb().execute<{ id: string }>(sql`
        select held.id::text as id from unnest(${jobIdArray(jobs.map((j) => j.jobId))}::bigint[]) held(id)
        where not exists (select 1 from graphile_worker._private_jobs j
          where j.id = held.id and j.locked_by = ${this.lockId} and j.key is not null)`);
    } catch (error) {
      await this.release(
        jobs.map((j) => j.jobId),
        messageOf(error),
      );
      throw error;
    }
    const notOurs = new Set(lost.map((r) => r.id));
    const batches: HeldJob[][] = [];
    for (let i = 0; i < jobs.length; i += this.options.batchSize) {
      batches.push(jobs.slice(i, i + this.options.batchSize));
    }
    await Promise.all(batches.map((batch) => this.runBatch(batch, notOurs)));
  }

  private async runBatch(jobs: HeldJob[], notOurs: Set<string>): Promise<void> {
    const jobIds = jobs.map((j) => j.jobId);
    const waitIds = jobs.filter((j) => !notOurs.has(j.jobId)).map((j) => j.waitId);
    try {
      if (waitIds.length > 0) await this.resume(waitIds);
    } catch (error) {
      log().error(
        { err: error },
        `Resuming ${waitIds.length} waits on time failed; their jobs will retry them.`,
      );
      await this.release(jobIds, messageOf(error));
      return;
    }
    try {
      // By id and lock: a job whose key was cleared meanwhile is still ours to complete.
      await getDb().execute(sql`
        delete from graphile_worker._private_jobs
        where id = any(${jobIdArray(jobIds)}::bigint[]) and locked_by = ${this.lockId}`);
    } catch (error) {
      // A redelivered resume is a no-op, so giving the jobs back instead is safe.
      log().error({ err: error }, `Completing ${jobIds.length} resumed jobs failed; releasing them later.`);
      for (const id of jobIds) this.stranded.add(id);
    }
  }

  /**
   * Gives jobs back to graphile-worker, which runs them once due. `error` null means unused (a
   * stop before the due time): the attempt is not counted, as graphile-worker's own returnJobs.
   * If the database refuses, the jobs are kept in `stranded` and released on the next scan.
   */
  private async release(jobIds: string[], error: string | null): Promise<void> {
    try {
      await getDb().execute(sql`
        update graphile_worker._private_jobs
        set locked_by = null, locked_at = null,
          attempts = case when ${error}::text is null then greatest(0, attempts - 1) else attempts end,
          last_error = coalesce(${error}::text, last_error)
        where id = any(${jobIdArray(jobIds)}::bigint[]) and locked_by = ${this.lockId}`);
    } catch (releaseError) {
      log().error({ err: releaseError }, `Releasing ${jobIds.length} held jobs failed; will retry.`);
      for (const id of jobIds) this.stranded.add(id);
    }
  }

  private async releaseStranded(): Promise<void> {
    if (this.stranded.size === 0) return;
    const jobIds = [...this.stranded];
    this.stranded.clear();
    await this.release(jobIds, "The wake timer could not complete this job.");
  }
}
