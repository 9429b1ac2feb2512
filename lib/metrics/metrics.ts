import "server-only";
import client from "prom-client";
import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { busiestShops } from "@/lib/queue/backlog";

/** Shops ranked in `tillflow_shop_backlog`: a bounded label whatever the number of shops. */
const TOP_SHOPS = 5;

/**
 * The process's Prometheus metrics (SPEC §2 "Observability"): `GET /api/metrics` serves the web
 * server's, `TILLFLOW_METRICS_PORT` a worker's (lib/metrics/serve.ts). Counters count what this
 * process did; the queue's gauges are read from the database when scraped.
 *
 * One set a process, kept on `globalThis`: the web server loads this module twice (Next.js's
 * bundle and the direct routes, server/direct-routes.ts), and both must count into the same set.
 */
function create() {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    runs: new client.Counter({
      name: "tillflow_runs_total",
      help: "Runs this process ended, by outcome (succeeded, partial, failed, cancelled).",
      labelNames: ["status"] as const,
      registers,
    }),
    legs: new client.Counter({
      name: "tillflow_legs_total",
      help: "Legs of runs this process executed (a run's first leg, and each after a wait).",
      registers,
    }),
    legsTakenOver: new client.Counter({
      name: "tillflow_legs_taken_over_total",
      help: "Writes refused because a peer had taken the leg over while this worker was cut off (engine/fence.ts).",
      registers,
    }),
    events: new client.Counter({
      name: "tillflow_events_ingested_total",
      help: "Events recorded through POST /api/v1/events (duplicates not counted).",
      registers,
    }),
    httpAction: new client.Histogram({
      name: "tillflow_http_action_duration_seconds",
      help: "Time an HTTP request step took to answer (or fail), per attempt.",
      labelNames: ["outcome"] as const,
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    waitLateness: new client.Histogram({
      name: "tillflow_wait_lateness_seconds",
      help: "How long after its time a wait (delay, retry or time-out) was taken up, by kind.",
      labelNames: ["kind"] as const,
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15, 60, 300, 3600],
      registers,
    }),
    jobsWaiting: new client.Gauge({
      name: "tillflow_jobs_waiting",
      help: "Jobs due and not yet taken by a worker, by task.",
      labelNames: ["task"] as const,
      registers,
    }),
    heldRuns: new client.Gauge({
      name: "tillflow_runs_held",
      help: "Runs a cap holds now, waiting for someone to release or discard them.",
      registers,
    }),
    alertSends: new client.Counter({
      name: "tillflow_alert_sends_total",
      help: "Alerts this process tried to send, by kind, channel (email, slack, webhook) and outcome (sent, failed).",
      labelNames: ["kind", "channel", "outcome"] as const,
      registers,
    }),
    queueWait: new client.Histogram({
      name: "tillflow_queue_wait_seconds",
      help: "How long a job waited for a worker once it was due, by task (backlog work from when it was queued).",
      labelNames: ["task"] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15, 60, 300],
      registers,
    }),
    shopBacklog: new client.Gauge({
      name: "tillflow_shop_backlog",
      help: `Backlog jobs waiting of the shops with the most, by rank (1 = most; top ${TOP_SHOPS}, no shop label: \`tillflow queue\` names them).`,
      labelNames: ["rank"] as const,
      registers,
    }),
    shopBacklogOldest: new client.Gauge({
      name: "tillflow_shop_backlog_oldest_seconds",
      help: `How long the oldest backlog job of the shop at each rank has waited (see tillflow_shop_backlog).`,
      labelNames: ["rank"] as const,
      registers,
    }),
    oldestJobAge: new client.Gauge({
      name: "tillflow_job_oldest_age_seconds",
      help: "How long the oldest due job not yet taken has waited, by task.",
      labelNames: ["task"] as const,
      registers,
    }),
  };
}

type Metrics = ReturnType<typeof create>;
const KEY = Symbol.for("tillflow.metrics");
const held = globalThis as typeof globalThis & { [KEY]?: Metrics };

export function metrics(): Metrics {
  return (held[KEY] ??= create());
}

/** Reads the queue's gauges from graphile-worker's jobs and the held runs' count, then renders all. */
export async function renderMetrics(): Promise<{ text: string; contentType: string }> {
  const m = metrics();
  const rows = await getDb().execute<{ task: string; waiting: number; oldest: number }>(sql`
    select t.identifier as task, count(j.id)::int as waiting,
           coalesce(extract(epoch from now() - min(greatest(j.run_at, j.created_at))), 0)::float8 as oldest
    from graphile_worker._private_tasks t
    left join graphile_worker._private_jobs j
      on j.task_id = t.id and j.is_available and j.run_at <= now()
    group by t.identifier`);
  m.jobsWaiting.reset();
  m.oldestJobAge.reset();
  for (const row of rows) {
    m.jobsWaiting.set({ task: row.task }, row.waiting);
    m.oldestJobAge.set({ task: row.task }, row.waiting > 0 ? row.oldest : 0);
  }
  m.shopBacklog.reset();
  m.shopBacklogOldest.reset();
  (await busiestShops(getDb(), TOP_SHOPS)).forEach((shop, i) => {
    m.shopBacklog.set({ rank: String(i + 1) }, shop.waiting);
    m.shopBacklogOldest.set({ rank: String(i + 1) }, shop.oldestSeconds);
  });
  // Few runs are ever held: the status index answers this without reading the others.
  const [held] = await getDb().execute<{ n: number }>(
    sql`select count(*)::int as n from automation_runs where status = 'held'`,
  );
  m.heldRuns.set(held?.n ?? 0);
  return { text: await m.registry.metrics(), contentType: m.registry.contentType };
}
