import { config } from "@/lib/config/config";

/**
 * Gathers the ids (runs to start, waits to resume) of jobs that begin at about the same moment and
 * hands them to the leg pipeline together, so a thousand legs cost a handful of statements instead
 * of thousands. Each job's promise settles with its own id's outcome, or rejects with its own
 * error (so graphile-worker retries just that job).
 *
 * Batches size themselves to the load: at most `maxInFlight` partial batches run at once, and ids
 * that arrive meanwhile wait for one of them to end and then go together. A quiet worker starts a
 * leg within `maxWaitMs`; a busy one makes fewer, larger batches instead of one small transaction
 * per event, each paying its own round trips and commit (bench -- live: a steady 100 events/s
 * made batches of one or two legs). A full batch never waits.
 *
 * A batch holds its slot while it is one: until `execute` calls `release` (the pipeline does once
 * the batch's shared phase is written and each leg goes on alone, to its outside actions), or
 * settles. Its jobs' promises still settle when their legs end. Held to the end, two batches whose
 * legs wait on slow outside actions (looping scripts, slow HTTP calls) would stop every other run
 * of the worker from starting until they ended (`npm run bench -- code`).
 */
export class RunBatcher<Outcome> {
  private pending: {
    id: string;
    jobId: string | undefined;
    resolve: (outcome: Outcome) => void;
    reject: (e: unknown) => void;
  }[] = [];
  private timer: NodeJS.Timeout | null = null;
  private inFlight = 0;

  constructor(
    /** `jobIds`: the graphile-worker job of each id, for the leg's log lines. */
    private readonly execute: (
      ids: string[],
      release: () => void,
      jobIds: ReadonlyMap<string, string>,
    ) => Promise<Map<string, Outcome | Error>>,
    /** Largest batch. Default 500 (or `WORKER_BATCH_SIZE`). */
    private readonly maxBatch = config().WORKER_BATCH_SIZE,
    /** How long the first job of a batch waits for company, in ms. Default 3. */
    private readonly maxWaitMs = 3,
    /** Partial batches running at once. Default 2 (or `WORKER_BATCHES_IN_FLIGHT`). */
    private readonly maxInFlight = config().WORKER_BATCHES_IN_FLIGHT,
  ) {}

  submit(id: string, jobId?: string): Promise<Outcome> {
    return new Promise((resolve, reject) => {
      this.pending.push({ id, jobId, resolve, reject });
      if (this.pending.length >= this.maxBatch) this.flush();
      else if (this.inFlight < this.maxInFlight)
        this.timer ??= setTimeout(() => this.flush(), this.maxWaitMs);
    });
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending.splice(0, this.maxBatch);
    if (batch.length === 0) return;
    this.inFlight += 1;
    let held = true;
    const release = () => {
      if (!held) return;
      held = false;
      this.inFlight -= 1;
      // The ids that arrived while every slot was busy have waited long enough.
      if (this.pending.length > 0 && !this.timer) this.flush();
    };
    const jobIds = new Map(batch.flatMap((b) => (b.jobId === undefined ? [] : [[b.id, b.jobId] as const])));
    this.execute([...new Set(batch.map((b) => b.id))], release, jobIds)
      .then(
        (outcomes) => {
          for (const b of batch) {
            const outcome = outcomes.get(b.id);
            if (outcome instanceof Error) b.reject(outcome);
            else if (outcome === undefined) b.reject(new Error(`No outcome for ${b.id}.`));
            else b.resolve(outcome);
          }
        },
        (error: unknown) => {
          for (const b of batch) b.reject(error);
        },
      )
      .finally(release);
    if (this.pending.length >= this.maxBatch) this.flush();
    else if (this.pending.length > 0 && this.inFlight < this.maxInFlight)
      this.timer = setTimeout(() => this.flush(), this.maxWaitMs);
  }
}
