import { config } from "@/lib/config/config";

/**
 * Gathers the ids (runs to start, waits to resume) of jobs that begin at about the same moment and
 * hands them to the leg pipeline together, so a thousand legs cost a handful of statements instead
 * of thousands. Each job's promise settles with its own id's outcome, or rejects with its own
 * error (so graphile-worker retries just that job).
 *
 * Batches size themselves to the load: at most `maxInFlight` batches run at once, and ids that
 * arrive meanwhile wait for one of them to end and then go together. A quiet worker starts a leg
 * within `maxWaitMs`; a busy one makes fewer, larger batches instead of one small transaction per
 * event, each paying its own round trips and commit (bench -- live: a steady 100 events/s made
 * batches of one or two legs). Full batches wait their turn too: a worker holding a shop's backlog
 * of thousands runs two batches of it at a time, not twenty at once, so a batch with another
 * shop's leg in it (`take`) starts as soon as one of them is written, not after all of them.
 *
 * A shop with few legs here (`LIGHT_LEGS` a unit of weight, waiting and running) while another
 * has a backlog gets a lane of its own: its legs go together in a batch beside the others, at once,
 * not in the next full batch after a slot frees (bench -- fairness: a quiet shop's leg waited
 * 0.6 s for a slot and ran 0.3 s in a batch of 500 another shop filled). One such batch at a time.
 * A shop alone, or shops all light, never take it: batches form as above.
 *
 * A batch holds its slot while it is one: until `execute` calls `release` (the pipeline does once
 * the batch's shared phase is written and each leg goes on alone, to its outside actions), or
 * settles. Its jobs' promises still settle when their legs end. Held to the end, two batches whose
 * legs wait on slow outside actions (looping scripts, slow HTTP calls) would stop every other run
 * of the worker from starting until they ended (`npm run bench -- code`).
 */
/** Legs a shop may have in the worker, per unit of weight, and still be served in the light lane. */
export const LIGHT_LEGS = 100;

interface Pending<Outcome> {
  id: string;
  jobId: string | undefined;
  resolve: (outcome: Outcome) => void;
  reject: (e: unknown) => void;
}

export class RunBatcher<Outcome> {
  /** The ids waiting for a batch, by shop ("" when a job did not say), each shop's in arrival order. */
  private pending = new Map<string, Pending<Outcome>[]>();
  /** Each waiting shop's weight: how many legs it puts in a batch per turn. */
  private weights = new Map<string, number>();
  private waiting = 0;
  private timer: NodeJS.Timeout | null = null;
  private inFlight = 0;
  /** Each shop's legs here, waiting or in a batch, until they settle. */
  private legsOf = new Map<string, number>();
  /** The shops with more than their light share here. */
  private heavy = new Set<string>();
  private lightLaneBusy = false;

  constructor(
    /** `jobIds`: the graphile-worker job of each id, for the leg's log lines. */
    private readonly execute: (
      ids: string[],
      release: () => void,
      jobIds: ReadonlyMap<string, string>,
      /** The light lane's batch: small shops' legs beside a backlog, which queue for nothing. */
      light: boolean,
    ) => Promise<Map<string, Outcome | Error>>,
    /** Largest batch. Default 500 (or `WORKER_BATCH_SIZE`). */
    private readonly maxBatch = config().WORKER_BATCH_SIZE,
    /** How long the first job of a batch waits for company, in ms. Default 3. */
    private readonly maxWaitMs = 3,
    /** Batches running at once. Default 2 (or `WORKER_BATCHES_IN_FLIGHT`). */
    private readonly maxInFlight = config().WORKER_BATCHES_IN_FLIGHT,
  ) {}

  /**
   * `shop`: whose leg this is; when several shops wait, a batch takes their legs in turn, `weight`
   * at a time (lib/queue/fair-share.ts).
   */
  submit(id: string, jobId?: string, shop = "", weight = 1): Promise<Outcome> {
    this.weights.set(shop, weight);
    this.count(shop, weight, 1);
    return new Promise<Outcome>((resolve, reject) => {
      const queue = this.pending.get(shop);
      const entry = { id, jobId, resolve, reject };
      if (queue) queue.push(entry);
      else this.pending.set(shop, [entry]);
      this.waiting += 1;
      if (!this.heavy.has(shop) && this.heavy.size > 0) this.flushLight();
      if (this.inFlight >= this.maxInFlight) return;
      if (this.waiting >= this.maxBatch) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.maxWaitMs);
    }).finally(() => this.count(shop, weight, -1));
  }

  private count(shop: string, weight: number, delta: number): void {
    const legs = (this.legsOf.get(shop) ?? 0) + delta;
    if (legs === 0) this.legsOf.delete(shop);
    else this.legsOf.set(shop, legs);
    if (legs > LIGHT_LEGS * weight) this.heavy.add(shop);
    else this.heavy.delete(shop);
  }

  /** While a shop has a backlog here, the waiting legs of the light shops, in a batch of their own. */
  private flushLight(): void {
    if (this.lightLaneBusy || this.heavy.size === 0) return;
    const batch: Pending<Outcome>[] = [];
    for (const [shop, queue] of [...this.pending]) {
      if (this.heavy.has(shop)) continue;
      const turn = queue.splice(0, this.maxBatch - batch.length);
      batch.push(...turn);
      this.waiting -= turn.length;
      if (queue.length === 0) this.pending.delete(shop);
      if (batch.length === this.maxBatch) break;
    }
    if (batch.length === 0) return;
    this.lightLaneBusy = true;
    this.start(
      batch,
      () => {
        this.lightLaneBusy = false;
        this.flushLight();
      },
      true,
    );
  }

  /**
   * The next batch: the legs of each waiting shop in turn, `weight` a turn, until it is full. A
   * shop with one leg waiting goes in the next batch however many another shop has waiting (fair
   * share, as the queue's order is: lib/queue/fair-share.ts); a shop alone fills whole batches.
   */
  private take(): Pending<Outcome>[] {
    const batch: Pending<Outcome>[] = [];
    while (batch.length < this.maxBatch && this.waiting > 0) {
      for (const [shop, queue] of [...this.pending]) {
        if (batch.length === this.maxBatch) break;
        const turn = queue.splice(0, Math.min(this.weights.get(shop) ?? 1, this.maxBatch - batch.length));
        batch.push(...turn);
        this.waiting -= turn.length;
        // To the back of the turn order, or gone with nothing left.
        this.pending.delete(shop);
        if (queue.length > 0) this.pending.set(shop, queue);
        else this.weights.delete(shop);
      }
    }
    return batch;
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.flushLight();
    const batch = this.take();
    if (batch.length === 0) return;
    this.inFlight += 1;
    this.start(batch, () => {
      this.inFlight -= 1;
      // The ids that arrived while every slot was busy have waited long enough.
      if (this.waiting > 0 && !this.timer) this.flush();
    });
    if (this.inFlight >= this.maxInFlight) return;
    if (this.waiting >= this.maxBatch) this.flush();
    else if (this.waiting > 0) this.timer = setTimeout(() => this.flush(), this.maxWaitMs);
  }

  /** Runs `batch`; `onRelease` once, when it releases its slot or settles. */
  private start(batch: Pending<Outcome>[], onRelease: () => void, light = false): void {
    let held = true;
    const release = () => {
      if (!held) return;
      held = false;
      onRelease();
    };
    const jobIds = new Map(batch.flatMap((b) => (b.jobId === undefined ? [] : [[b.id, b.jobId] as const])));
    this.execute([...new Set(batch.map((b) => b.id))], release, jobIds, light)
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
  }
}
