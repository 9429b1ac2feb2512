/**
 * Gathers the ids (runs to start, waits to resume) of jobs that begin at about the same moment and
 * hands them to one batched execution, so a thousand legs cost a handful of statements instead of
 * thousands. Each job's promise settles with its own id: "done", or "alone" when it needs the
 * one-at-a-time path (which the job then takes itself, so a slow HTTP call holds up no one else).
 */
export class RunBatcher {
  private pending: { id: string; resolve: (r: "done" | "alone") => void; reject: (e: unknown) => void }[] =
    [];
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly execute: (ids: string[]) => Promise<{ alone: string[] }>,
    /** Largest batch. Default 500 (or `WORKER_BATCH_SIZE`). */
    private readonly maxBatch = Number(process.env.WORKER_BATCH_SIZE ?? 500),
    /** How long the first job of a batch waits for company, in ms. Default 3. */
    private readonly maxWaitMs = 3,
  ) {}

  submit(id: string): Promise<"done" | "alone"> {
    return new Promise((resolve, reject) => {
      this.pending.push({ id, resolve, reject });
      if (this.pending.length >= this.maxBatch) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.maxWaitMs);
    });
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending.splice(0, this.maxBatch);
    if (batch.length === 0) return;
    const ids = [...new Set(batch.map((b) => b.id))];
    this.execute(ids).then(
      ({ alone }) => {
        const separate = new Set(alone);
        for (const b of batch) b.resolve(separate.has(b.id) ? "alone" : "done");
      },
      (error: unknown) => {
        for (const b of batch) b.reject(error);
      },
    );
    if (this.pending.length > 0) this.timer = setTimeout(() => this.flush(), this.maxWaitMs);
  }
}
