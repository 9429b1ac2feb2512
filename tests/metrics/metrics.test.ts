import crypto from "node:crypto";
import http from "node:http";
import parsePrometheusTextFormat, { type ParsedFamily } from "parse-prometheus-text-format";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { GET as metricsRoute } from "@/app/api/metrics/route";
import { POST as eventsRoute } from "@/app/api/v1/events/route";
import { getDb } from "@/lib/db/client";
import { upsertEntity } from "@/lib/entities/service";
import { until } from "@/tests/helpers/poll";
import { call } from "@/tests/helpers/fixtures";
import { flow, publishFlow, settledRuns } from "@/tests/helpers/flows";
import { closeServer, listenLocally } from "@/tests/helpers/receiver";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { startTestWorker } from "@/tests/helpers/worker";
import { startWorker, type WorkerHandle } from "@/worker/run";

// SPEC §2 "Observability": the web server's metrics at GET /api/metrics (bearer METRICS_TOKEN),
// a worker's on TILLFLOW_METRICS_PORT; each parsed as Prometheus reads it, counting what was done.

const TOKEN = `metrics-${crypto.randomBytes(8).toString("hex")}`;
let shop: TestShop;
let receiver: http.Server;
let base: string;

beforeAll(async () => {
  shop = await createShop();
  receiver = http.createServer((_req, res) => res.writeHead(200).end("{}"));
  base = await listenLocally(receiver);
});
afterAll(async () => {
  delete process.env.METRICS_TOKEN;
  await closeServer(receiver);
});

async function scrape(authorization?: string) {
  const req = new Request("http://test.local/api/metrics", {
    headers: authorization ? { authorization } : {},
  });
  const res = await metricsRoute(req);
  return { status: res.status, type: res.headers.get("content-type"), text: await res.text() };
}

function family(families: ParsedFamily[], name: string): ParsedFamily {
  const found = families.find((f) => f.name === name);
  if (!found) throw new Error(`No metric ${name}; there are ${families.map((f) => f.name).join(", ")}`);
  return found;
}

/** The value of a counter or gauge with these labels (0 when the series does not exist yet). */
function valueOf(families: ParsedFamily[], name: string, labels: Record<string, string> = {}): number {
  const series = family(families, name).metrics.find((m) =>
    Object.entries(labels).every(([k, v]) => m.labels?.[k] === v),
  );
  return Number(series?.value ?? 0);
}

describe("GET /api/metrics", () => {
  test("is off without METRICS_TOKEN, and asks for the token when it is set", async () => {
    delete process.env.METRICS_TOKEN;
    const off = await scrape(`Bearer ${TOKEN}`);
    expect(off.status).toBe(404);
    expect(off.text).toMatch(/Metrics are off: set METRICS_TOKEN/);
    process.env.METRICS_TOKEN = TOKEN;
    expect((await scrape()).status).toBe(401);
    expect((await scrape("Bearer wrong-token")).status).toBe(401);
  });

  test("counts the events ingested, the runs ended and the HTTP steps' latency, with the process defaults and the queue", async () => {
    process.env.METRICS_TOKEN = TOKEN;
    const before = parsePrometheusTextFormat((await scrape(`Bearer ${TOKEN}`)).text);
    //  order_paid ──▶ http_request(receiver) ──▶ add_tag(metered)
    const id = await publishFlow(
      shop.keys.editor,
      "Metered",
      flow(
        [
          { id: "t", type: "auto.trigger.order_paid" },
          { id: "call", type: "auto.action.http_request", params: { url: `${base}/hook` } },
          { id: "tag", type: "auto.action.add_tag", params: { tag: "metered" } },
        ],
        [
          ["t", "call"],
          ["call", "tag"],
        ],
      ),
    );
    await upsertEntity(
      shop.tenant.id,
      "order",
      "m-1",
      { number: "#1", status: "pending", total: 5, currency: "EUR" },
      "test",
    );
    const posted = await call(eventsRoute, {
      method: "POST",
      key: shop.keys.editor,
      body: { type: "order.paid", domain: "order", entityId: "m-1" },
    });
    expect(posted.status).toBe(201);
    const worker = await startTestWorker();
    try {
      const [run] = await settledRuns(id);
      expect(run!.status).toBe("succeeded");
    } finally {
      await worker.stop();
    }
    const reply = await scrape(`Bearer ${TOKEN}`);
    expect(reply.status).toBe(200);
    expect(reply.type).toMatch(/^text\/plain; version=0\.0\.4/);
    const after = parsePrometheusTextFormat(reply.text);
    expect(
      valueOf(after, "tillflow_events_ingested_total") - valueOf(before, "tillflow_events_ingested_total"),
    ).toBe(1);
    // The worker ran in this process here, so its counters are in the same registry.
    expect(
      valueOf(after, "tillflow_runs_total", { status: "succeeded" }) -
        valueOf(before, "tillflow_runs_total", { status: "succeeded" }),
    ).toBe(1);
    expect(
      valueOf(after, "tillflow_legs_total") - valueOf(before, "tillflow_legs_total"),
    ).toBeGreaterThanOrEqual(1);
    const latency = family(after, "tillflow_http_action_duration_seconds");
    expect(latency.type).toBe("HISTOGRAM");
    // The parser keeps a histogram's buckets; every request falls in "+Inf".
    const requests = latency.metrics.reduce((sum, m) => sum + Number(m.buckets?.["+Inf"] ?? 0), 0);
    expect(requests).toBeGreaterThanOrEqual(1);
    expect(reply.text).toMatch(/tillflow_http_action_duration_seconds_count\{outcome="2xx"\} [1-9]/);
    expect(family(after, "tillflow_jobs_waiting").metrics.map((m) => m.labels?.task)).toContain(
      "automation_execute",
    );
    expect(family(after, "tillflow_job_oldest_age_seconds").type).toBe("GAUGE");
    expect(valueOf(after, "process_cpu_user_seconds_total")).toBeGreaterThan(0);
  });
});

describe("wait lateness", () => {
  test("observes how late a wait that came due was taken up, by kind", async () => {
    process.env.METRICS_TOKEN = TOKEN;
    //  order_paid ──▶ Wait 1 hour ──▶ add_tag(late)
    const id = await publishFlow(
      shop.keys.editor,
      "Late",
      flow(
        [
          { id: "t", type: "auto.trigger.order_paid" },
          { id: "w", type: "auto.control.wait", params: { duration: 1, unit: "hours" } },
          { id: "tag", type: "auto.action.add_tag", params: { tag: "late" } },
        ],
        [
          ["t", "w"],
          ["w", "tag"],
        ],
      ),
    );
    await upsertEntity(
      shop.tenant.id,
      "order",
      "late-1",
      { number: "#2", status: "pending", total: 5, currency: "EUR" },
      "test",
    );
    const beforeText = (await scrape(`Bearer ${TOKEN}`)).text;
    const worker = await startTestWorker();
    try {
      await call(eventsRoute, {
        method: "POST",
        key: shop.keys.editor,
        body: { type: "order.paid", domain: "order", entityId: "late-1" },
      });
      const [wait] = await until(
        () =>
          getDb().execute<{ id: string }>(
            sql`select id from automation_run_waits where automation_id = ${id}`,
          ),
        (rows) => rows.length === 1,
        { timeoutMs: 15_000, what: "the run to wait" },
      );
      // The wait's time passed 3 s ago and its job is due now: it is taken up about 3 s late.
      await getDb().execute(
        sql`update automation_run_waits set resume_at = now() - interval '3 seconds' where id = ${wait!.id}`,
      );
      await getDb().execute(
        sql`update graphile_worker._private_jobs set run_at = now() where key = ${wait!.id}`,
      );
      const [run] = await settledRuns(id);
      expect(run!.status).toBe("succeeded");
    } finally {
      await worker.stop();
    }
    const afterText = (await scrape(`Bearer ${TOKEN}`)).text;
    expect(family(parsePrometheusTextFormat(afterText), "tillflow_wait_lateness_seconds").type).toBe(
      "HISTOGRAM",
    );
    // The parser keeps a histogram's buckets but not its labels: the kind's series are read from the text.
    const sample = (text: string, series: string) =>
      Number(new RegExp(`^${series.replace(/[{}.+]/g, "\\$&")} (\\S+)$`, "m").exec(text)?.[1] ?? 0);
    const delta = (series: string) => sample(afterText, series) - sample(beforeText, series);
    expect(delta('tillflow_wait_lateness_seconds_count{kind="delay"}')).toBe(1);
    // In the 5 s bucket and not the 2.5 s one: about 3 s late.
    expect(delta('tillflow_wait_lateness_seconds_bucket{le="5",kind="delay"}')).toBe(1);
    expect(delta('tillflow_wait_lateness_seconds_bucket{le="2.5",kind="delay"}')).toBe(0);
  });
});

describe("a worker's TILLFLOW_METRICS_PORT", () => {
  let worker: WorkerHandle;
  let port: number;
  beforeAll(async () => {
    const probe = http.createServer();
    port = Number(new URL(await listenLocally(probe)).port);
    await closeServer(probe);
    worker = await startWorker({
      connectionString: process.env.DATABASE_URL!,
      crontab: false,
      metricsPort: port,
    });
  });
  afterAll(() => worker.stop());

  test("serves the worker's metrics at /metrics, asking for the token when one is set", async () => {
    process.env.METRICS_TOKEN = TOKEN;
    expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(401);
    const res = await fetch(`http://127.0.0.1:${port}/metrics`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.status).toBe(200);
    const families = parsePrometheusTextFormat(await res.text());
    expect(family(families, "tillflow_runs_total").type).toBe("COUNTER");
    expect(family(families, "tillflow_jobs_waiting").type).toBe("GAUGE");
    expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
  });
});
