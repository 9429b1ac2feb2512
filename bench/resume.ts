/**
 * `npm run bench -- resume`: runs parked at a Wait, all due in the same second, resumed by one
 * worker process; two rounds, each on a fresh database: 10,000 due (BENCH_N) and 2,000 due
 * (BENCH_N_SMALL). Reports per round lateness (from `resume_at` to the leg's start: the wait's
 * claim, which marks the run running), p50/p99/max; how long after the due second each run settled
 * (its actions done), p50/p99; and the time until every run settled.
 * Targets (SPEC §5): 10,000 due: p50 ≤ 250 ms, all settled ≤ 8 s; 2,000 due: p99 ≤ 300 ms.
 */
import { sql } from "drizzle-orm";
import { createApiKey } from "@/lib/auth/api-keys";
import { resolveCaller } from "@/lib/auth/resolve-caller";
import { createTenant } from "@/lib/auth/tenants";
import { createAutomation } from "@/lib/automations/lifecycle/create";
import { publishAutomation } from "@/lib/automations/lifecycle/publish";
import { getDb } from "@/lib/db/client";
import { startWorker } from "@/worker/run";
import { benchDatabase, percentile, report, waitUntil, type Metrics } from "./harness";

const N_LARGE = Number(process.env.BENCH_N ?? 10_000);
const N_SMALL = Number(process.env.BENCH_N_SMALL ?? 2_000);

interface Round {
  waits: number;
  latenessMinMs: number;
  latenessP50Ms: number;
  latenessP99Ms: number;
  latenessMaxMs: number;
  settledAfterDueP50Ms: number;
  settledAfterDueP99Ms: number;
  allSettledSeconds: number;
  observedSettledSeconds: number;
}

async function resumeRound(N: number): Promise<Round> {
  const db = await benchDatabase("resume");
  try {
    const tenant = await createTenant({ slug: "bench", name: "Bench" });
    const { key } = await createApiKey(tenant.id, { name: "bench", role: "admin" });
    const caller = (await resolveCaller(new Headers({ authorization: `Bearer ${key}` })))!;
    //  order_created ──▶ Wait 1 minute ──▶ add_tag(woke)
    const automation = await createAutomation(caller, {
      name: "Wake up",
      graph: {
        nodes: [
          { id: "t", type: "auto.trigger.order_created", params: {} },
          { id: "w", type: "auto.control.wait", params: { duration: 1, unit: "minutes" } },
          { id: "a", type: "auto.action.add_tag", params: { tag: "woke" } },
        ],
        edges: [
          { id: "e1", source: "t", target: "w" },
          { id: "e2", source: "w", target: "a" },
        ],
      },
    });
    await publishAutomation(caller, automation.id, {});

    // Park N runs at the wait exactly as the pause path leaves them (run, waiting step, wait row,
    // delayed job keyed by the wait id), in bulk: the first legs are not what is measured here.
    const far = new Date(Date.now() + 3_600_000).toISOString();
    await getDb().execute(sql`
      insert into entities (tenant_id, domain, id, data, status, updated_at)
      select ${tenant.id}, 'order', 'o' || g, jsonb_build_object('number', '#' || g, 'status', 'pending', 'total', 10,
             'currency', 'EUR', 'lineItems', '[]'::jsonb), 'pending', now()
      from generate_series(1, ${N}) g`);
    await getDb().execute(sql`
      with runs as (
        insert into automation_runs (tenant_id, automation_id, automation_version, status, event_id, trigger_node_id,
          event, domain, entity_id, legs, started_at, resume_at)
        select ${tenant.id}, ${automation.id}, 1, 'waiting', 'evt' || g, 't',
          jsonb_build_object('id', 'evt' || g, 'type', 'order.created', 'domain', 'order', 'entityId', 'o' || g,
            'entityStatus', 'pending', 'payload', '{}'::jsonb, 'occurredAt', now()),
          'order', 'o' || g, 1, now(), ${far}::timestamptz
        from generate_series(1, ${N}) g
        returning id, tenant_id, event, entity_id
      ), steps as (
        insert into automation_run_steps (tenant_id, run_id, node_id, node_type, category, status, leg, position)
        select tenant_id, id, 'w', 'auto.control.wait', 'wait', 'waiting', 1, 0 from runs
        returning id, run_id
      )
      insert into automation_run_waits (tenant_id, run_id, automation_id, automation_version, node_id, node_type,
        step_id, leg, event, kind, resume_at)
      select r.tenant_id, r.id, ${automation.id}, 1, 'w', 'auto.control.wait', s.id, 1, r.event, 'delay', ${far}::timestamptz
      from runs r join steps s on s.run_id = r.id`);
    await getDb().execute(sql`
      select graphile_worker.add_jobs(array(
        select ('automation_resume', json_build_object('waitId', id), null, ${far}::timestamptz, 5, id::text, null, null)::graphile_worker.job_spec
        from automation_run_waits))`);

    // A live database has statistics; a bulk-loaded one has none until autovacuum gets to it.
    await getDb().execute(sql`analyze`);
    const worker = await startWorker({ connectionString: db.url, crontab: false });
    // Everything falls due in the same second, a few seconds from now.
    const due = new Date(Math.ceil((Date.now() + 3_000) / 1000) * 1000);
    await getDb().execute(sql`update automation_run_waits set resume_at = ${due.toISOString()}::timestamptz`);
    await getDb().execute(sql`update automation_runs set resume_at = ${due.toISOString()}::timestamptz`);
    await getDb().execute(
      sql`update graphile_worker._private_jobs set run_at = ${due.toISOString()}::timestamptz`,
    );

    await waitUntil(
      async () => {
        const [row] = await getDb().execute<{ n: number }>(
          sql`select count(*)::int as n from automation_runs where status not in ('succeeded', 'partial', 'failed', 'cancelled')`,
        );
        return row!.n === 0;
      },
      300_000,
      100,
    );
    const settledAt = Date.now();
    await worker.stop();

    const lateness = (
      await getDb().execute<{ ms: number }>(
        sql`select (extract(epoch from resolved_at - resume_at) * 1000)::float8 as ms from automation_run_waits order by 1`,
      )
    ).map((r) => Number(r.ms));
    const settled = (
      await getDb().execute<{ ms: number }>(sql`
        select (extract(epoch from r.finished_at - w.resume_at) * 1000)::float8 as ms
        from automation_run_waits w join automation_runs r on r.id = w.run_id order by 1`)
    ).map((r) => Number(r.ms));
    const [check] = await getDb().execute<{ ok: number; tagged: number; last: string }>(sql`
      select (select count(*)::int from automation_runs where status = 'succeeded') as ok,
             (select count(*)::int from entities where 'woke' = any(tags)) as tagged,
             (select max(finished_at) from automation_runs)::text as last`);
    if (check!.ok !== N || check!.tagged !== N)
      throw new Error(`Wrong result: ${check!.ok} succeeded, ${check!.tagged} tagged (want ${N}).`);
    const allSettledSeconds = (new Date(check!.last).getTime() - due.getTime()) / 1000;
    return {
      waits: N,
      latenessMinMs: Math.round(lateness[0]!),
      latenessP50Ms: Math.round(percentile(lateness, 50)),
      latenessP99Ms: Math.round(percentile(lateness, 99)),
      latenessMaxMs: Math.round(lateness.at(-1)!),
      settledAfterDueP50Ms: Math.round(percentile(settled, 50)),
      settledAfterDueP99Ms: Math.round(percentile(settled, 99)),
      allSettledSeconds,
      observedSettledSeconds: (settledAt - due.getTime()) / 1000,
    };
  } finally {
    await db.drop();
  }
}

/** A round's figures under one prefix (`large`, `small`), for one side-by-side report. */
function prefixed(prefix: string, round: Round): Metrics {
  return Object.fromEntries(
    Object.entries(round).map(([key, value]) => [`${prefix}${key[0]!.toUpperCase()}${key.slice(1)}`, value]),
  );
}

export async function benchResume(): Promise<void> {
  const large = await resumeRound(N_LARGE);
  const small = await resumeRound(N_SMALL);
  const largeMeets = large.latenessP50Ms <= 250 && large.allSettledSeconds <= 8;
  const smallMeets = small.latenessP99Ms <= 300;
  report("resume", {
    ...prefixed("large", large),
    largeTargetP50Ms: 250,
    largeTargetAllSettledSeconds: 8,
    largeMeetsTarget: largeMeets,
    ...prefixed("small", small),
    smallTargetP99Ms: 300,
    smallMeetsTarget: smallMeets,
    meetsTarget: largeMeets && smallMeets,
  });
}
