/**
 * `npm run bench -- backtest`: a backtest of 500 real runs of a 6-step flow (SPEC §5 "Backtest",
 * target ≤ 2 s). The runs are real: 500 orders paid through `ingestEvents`, run by this project's
 * worker, every step recorded. Then the draft — the first threshold lowered — is backtested as the
 * API does it (`backtest()`: runs and their steps read, records loaded, each run walked with no
 * effects, compared), BENCH_REPEATS times (5); p50 and max are reported.
 *
 *   order_paid ──▶ total > 100 ──true──▶ add_tag(big) ──▶ has tag vip? ──true──▶ add_note
 *                                                                       └─false─▶ send_email
 *
 * `BENCH_N` changes the number of runs (500, the most a backtest takes).
 */
import { sql } from "drizzle-orm";
import { createApiKey } from "@/lib/auth/api-keys";
import { resolveCaller } from "@/lib/auth/resolve-caller";
import { createTenant } from "@/lib/auth/tenants";
import { backtest } from "@/lib/automations/backtest/backtest";
import { createAutomation } from "@/lib/automations/lifecycle/create";
import { publishAutomation } from "@/lib/automations/lifecycle/publish";
import { getDb } from "@/lib/db/client";
import { ingestEvents } from "@/lib/automations/engine/start/api";
import { startWorker } from "@/worker/run";
import { benchDatabase, count, percentile, report, waitUntil } from "./harness";

const N = Number(process.env.BENCH_N ?? 500);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 5);
const TARGET_MS = 2_000;

const graph = (threshold: number) => ({
  nodes: [
    { id: "t", type: "auto.trigger.order_paid", params: {} },
    { id: "big", type: "auto.condition.field", params: { path: "total", operator: "gt", value: threshold } },
    { id: "tag", type: "auto.action.add_tag", params: { tag: "big" } },
    { id: "vip", type: "auto.condition.has_tag", params: { tag: "vip" } },
    { id: "note", type: "auto.action.add_note", params: { body: "A big order from a VIP: {entity.number}" } },
    {
      id: "mail",
      type: "auto.action.send_email",
      params: { to: "{entity.email}", subject: "Thanks for {entity.number}", body: "Your order is big." },
    },
  ],
  edges: [
    { id: "e1", source: "t", target: "big" },
    { id: "e2", source: "big", sourceHandle: "true", target: "tag" },
    { id: "e3", source: "tag", target: "vip" },
    { id: "e4", source: "vip", sourceHandle: "true", target: "note" },
    { id: "e5", source: "vip", sourceHandle: "false", target: "mail" },
  ],
});

export async function benchBacktest(): Promise<void> {
  const db = await benchDatabase("backtest");
  const worker = await startWorker({ connectionString: db.url, crontab: false });
  try {
    const tenant = await createTenant({ slug: "bench", name: "Bench" });
    const { key } = await createApiKey(tenant.id, { name: "bench", role: "editor" });
    const caller = (await resolveCaller(new Headers({ authorization: `Bearer ${key}` })))!;
    const automation = await createAutomation(caller, { name: "Big orders", graph: graph(100) });
    await publishAutomation(caller, automation.id, {});

    // Orders with totals 1…300, every tenth a VIP's; then paid, one event each.
    await getDb().execute(sql`
      insert into entities (tenant_id, domain, id, data, tags, status, updated_at)
      select ${tenant.id}, 'order', 'o' || g, jsonb_build_object('number', '#' || (1000 + g), 'status', 'paid',
             'total', (g * 7) % 300 + 1, 'currency', 'EUR', 'email', 'c' || g || '@example.com', 'lineItems', '[]'::jsonb),
             case when g % 10 = 0 then '{vip}'::text[] else '{}'::text[] end, 'paid', now()
      from generate_series(1, ${N}) g`);
    const started = performance.now();
    await ingestEvents(
      tenant.id,
      Array.from({ length: N }, (_, i) => ({
        id: `paid-${i + 1}`,
        type: "order.paid",
        domain: "order",
        entityId: `o${i + 1}`,
        payload: { status: "paid" },
      })),
    );
    await waitUntil(
      async () =>
        (await count(sql`select count(*)::int as n from automation_runs
          where automation_id = ${automation.id} and status in ('succeeded', 'partial', 'failed')`)) === N,
      300_000,
      100,
    );
    const runsSeconds = (performance.now() - started) / 1000;
    await getDb().execute(sql`analyze`);

    const draft = graph(50);
    const times: number[] = [];
    let last = await backtest(caller, automation.id, { graph: draft, limit: N });
    for (let i = 0; i < REPEATS; i++) {
      const t0 = performance.now();
      last = await backtest(caller, automation.id, { graph: draft, limit: N });
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    const p50 = percentile(times, 50);
    const max = times[times.length - 1]!;
    report("backtest", {
      runs: last.runs,
      steps: await count(
        sql`select count(*)::int as n from automation_run_steps where tenant_id = ${tenant.id}`,
      ),
      realRunsSeconds: Number(runsSeconds.toFixed(1)),
      changed: last.changed.length,
      sentence: last.sentences.join("; "),
      backtestP50Ms: Math.round(p50),
      backtestMaxMs: Math.round(max),
      perRunMs: Number((p50 / Math.max(1, last.runs)).toFixed(2)),
      targetMs: TARGET_MS,
      meetsTarget: max <= TARGET_MS,
    });
  } finally {
    await worker.stop();
    await db.drop();
  }
}
