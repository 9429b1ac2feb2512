/**
 * Watches the measured automation's runs from the bench process, read-only, on the app's own
 * database. Each load section sends events whose ids share a prefix, and a run keeps its trigger
 * event's id, so a section's runs are the automation's runs with that event-id prefix.
 */
import postgres from "postgres";

const TERMINAL = ["succeeded", "partial", "failed", "cancelled"];

export interface SectionRuns {
  runs: number;
  settled: number;
  succeeded: number;
  /** The latest `finished_at`, epoch ms (NaN when none finished). */
  lastFinishedMs: number;
}

export class RunWatcher {
  private readonly sql: postgres.Sql;
  /** When each section began (epoch ms, less a margin): its runs are looked for from then on only. */
  private readonly since = new Map<string, number>();

  constructor(
    databaseUrl: string,
    private readonly automationId: string,
  ) {
    this.sql = postgres(databaseUrl, { max: 2, onnotice: () => {} });
  }

  /**
   * Call before a section sends its first event. Its runs are then read by the automation's index
   * from that moment on, not among every run the bench made before (the polls of a drain would
   * otherwise cost the database more the longer the bench runs, in the middle of what it measures).
   */
  begin(prefix: string): void {
    this.since.set(prefix, Date.now() - 5_000);
  }

  private from(prefix: string): Date {
    return new Date(this.since.get(prefix) ?? 0);
  }

  async section(prefix: string): Promise<SectionRuns> {
    const [row] = await this.sql<{ runs: number; settled: number; succeeded: number; last: number | null }[]>`
      select count(*)::int as runs,
             (count(*) filter (where status = any(${TERMINAL})))::int as settled,
             (count(*) filter (where status = 'succeeded'))::int as succeeded,
             (extract(epoch from max(finished_at)) * 1000)::float8 as last
      from automation_runs
      where automation_id = ${this.automationId} and created_at >= ${this.from(prefix)}
        and starts_with(event_id, ${prefix})`;
    return {
      runs: row!.runs,
      settled: row!.settled,
      succeeded: row!.succeeded,
      lastFinishedMs: row!.last === null ? NaN : Number(row!.last),
    };
  }

  /** Runs of the section that finished between two instants (epoch ms). */
  async finishedBetween(prefix: string, fromMs: number, toMs: number): Promise<number> {
    const [row] = await this.sql<{ n: number }[]>`
      select count(*)::int as n from automation_runs
      where automation_id = ${this.automationId} and created_at >= ${this.from(prefix)}
        and starts_with(event_id, ${prefix})
        and finished_at >= to_timestamp(${fromMs / 1000}) and finished_at <= to_timestamp(${toMs / 1000})`;
    return row!.n;
  }

  /** Each settled run's trigger event id and `finished_at` (epoch ms). */
  async finishTimes(prefix: string): Promise<Map<string, number>> {
    const rows = await this.sql<{ event_id: string; ms: number }[]>`
      select event_id, (extract(epoch from finished_at) * 1000)::float8 as ms from automation_runs
      where automation_id = ${this.automationId} and created_at >= ${this.from(prefix)}
        and starts_with(event_id, ${prefix})
        and finished_at is not null`;
    return new Map(rows.map((r) => [r.event_id, Number(r.ms)]));
  }

  /** Waits until `expected` runs of the section exist and have all settled. */
  async drain(prefix: string, expected: number, timeoutMs = 600_000): Promise<SectionRuns> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const runs = await this.section(prefix);
      if (runs.runs >= expected && runs.settled === runs.runs) return runs;
      if (Date.now() > deadline) {
        throw new Error(
          `Runs of '${prefix}' did not settle within ${timeoutMs / 1000}s: ${runs.settled} settled of ${runs.runs} (want ${expected}).`,
        );
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /** Runs of the measured automation in this status. */
  async countStatus(status: string): Promise<number> {
    const [row] = await this.sql<{ n: number }[]>`
      select count(*)::int as n from automation_runs where automation_id = ${this.automationId} and status = ${status}`;
    return row!.n;
  }

  /** The other active automations of the measured one's shop that listen to `type`. */
  async otherListeners(type: string): Promise<string[]> {
    const rows = await this.sql<{ id: string }[]>`
      select o.id from automations o join automations a on a.tenant_id = o.tenant_id
      where a.id = ${this.automationId} and o.id <> a.id and o.status = 'active'
        and ${type} = any(o.trigger_events)`;
    return rows.map((r) => r.id);
  }

  async close(): Promise<void> {
    await this.sql.end();
  }
}
