/**
 * `npm run bench -- customers`: quiet hours and the shop's cap at scale (issue 51). BENCH_N
 * customers (100,000) in 5 time zones, 3 automations (high, normal, low priority) each aiming a
 * marketing message at every one of them. Each message is decided by the gate Send email uses
 * (`gateMarketing`: the per-customer advisory lock, the shop's settings, the customer's newest
 * sends and deferred messages, the write), one transaction per message as in a run, over six rounds
 * 8 hours apart on a simulated clock (a message still waiting is presented again once due, a
 * customer's highest priority first, as its wait would wake it). Reported:
 *
 * - Postgres time per decision: with the cluster started under TILLFLOW_PG_PROFILE=1, the time
 *   pg_stat_statements counts for the gate's statements, per decision (the bar: ≤ 0.5 ms), and with
 *   BEGIN/COMMIT; otherwise only the transaction's wall time here (p50 / p99 / mean), its round
 *   trips and commit included;
 * - marketing sends inside the customer's quiet hours, checked with Intl's wall clock: must be 0;
 * - sends against what the cap allows, computed apart (per customer and round: one when it is not
 *   quiet there, the 16-hour window is open and a message is left): must be equal.
 *
 * The runs exist as rows (status `waiting`, seeded directly, as benchmarks may; run history holds
 * a year of month partitions) and each decision names its run's event, so the gate's competitor
 * and sibling checks read real tables (and, on a yield, the runs' status). With
 * pg_stat_statements, each statement's calls, plannings and mean times are printed too. A message still waiting is presented again
 * only once it is due (as its wait would wake it), BENCH_CONCURRENCY (4) customers at a time.
 * `BENCH_N` sets the size (100,000; not run in CI), `BENCH_DECIDED` how many of them are decided
 * (all).
 */
import { sql } from "drizzle-orm";
import { createTenant } from "@/lib/auth/tenants";
import { closeDb, getDb } from "@/lib/db/client";
import { gateMarketing } from "@/lib/messaging/gate";
import { DEFAULT_QUIET_HOURS, DEFAULT_SHOP_CAP } from "@/lib/messaging/settings";
import { benchDatabase, count, percentile, report } from "./harness";

const N = Number(process.env.BENCH_N ?? 100_000);
/**
 * How many of them have their messages decided (the first ones: every zone alike), all unless
 * set: on a loaded machine deciding all 100,000 takes hours of wall time, while the tables the
 * gate reads (customers, runs, their keys) keep the full size.
 */
const DECIDED = Math.min(N, Number(process.env.BENCH_DECIDED ?? N));
/** Customers decided at once (two cores: a few connections keep Postgres busy). */
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const UNMEASURED = "not measured";
const ROUNDS = 6;
const ROUND_MS = 8 * 3_600_000;
/** 20:30 UTC: quiet in Berlin, Kolkata and Sydney, not in Los Angeles or New York. */
const T0 = Date.parse("2026-06-10T20:30:00Z");
const ZONES = [
  "America/Los_Angeles",
  "America/New_York",
  "Europe/Berlin",
  "Asia/Kolkata",
  "Australia/Sydney",
];
const PRIORITIES = ["high", "normal", "low"] as const;

const hourFormats = new Map(
  ZONES.map((zone) => [
    zone,
    new Intl.DateTimeFormat("en-GB", { timeZone: zone, hour: "2-digit", hourCycle: "h23" }),
  ]),
);
const hourIn = (zone: string, at: number) => Number(hourFormats.get(zone)!.format(at));
const quietAt = (zone: string, at: number) => {
  const h = hourIn(zone, at);
  return h >= 21 || h < 8;
};

/**
 * Postgres' statement statistics, emptied, when the cluster loads pg_stat_statements
 * (TILLFLOW_PG_PROFILE=1): true. auto_explain's timing of every statement is turned off for this
 * database (it would add its own cost to what is measured); the pool reconnects to take that.
 */
async function statementsProfile(): Promise<boolean> {
  try {
    await getDb().execute(sql`create extension if not exists pg_stat_statements`);
    await getDb().execute(sql`select pg_stat_statements_reset()`);
    const [db] = await getDb().execute<{ name: string }>(sql`select current_database() as name`);
    await getDb().execute(sql.raw(`alter database "${db!.name}" set auto_explain.log_analyze = off`));
    await getDb().execute(sql.raw(`alter database "${db!.name}" set auto_explain.log_min_duration = -1`));
    await closeDb();
    await getDb().execute(sql`select pg_stat_statements_reset()`);
    return true;
  } catch {
    return false;
  }
}

/** The time Postgres spent on this database's statements since `statementsProfile`. */
async function statementsTime(): Promise<{ totalMs: number; gateMs: number; slowestMeanMs: number }> {
  const [row] = await getDb().execute<{ total: number; gate: number; slowest: number }>(sql`
    select coalesce(sum(total_exec_time + total_plan_time), 0)::float8 as total,
      coalesce(sum(total_exec_time + total_plan_time) filter (where not utility), 0)::float8 as gate,
      coalesce(max((total_exec_time + total_plan_time) / nullif(calls, 0)) filter (where not utility), 0)::float8
        as slowest
    from (select *, lower(trim(query)) in ('begin', 'commit', 'rollback') as utility from pg_stat_statements) s
    where s.dbid = (select oid from pg_database where datname = current_database())
      and s.query not ilike '%pg_stat_statements%'`);
  return { totalMs: Number(row!.total), gateMs: Number(row!.gate), slowestMeanMs: Number(row!.slowest) };
}

/** Each of the gate's statements: calls, how often planned, mean planning and execution time. */
async function statementsBreakdown(): Promise<void> {
  const rows = await getDb().execute<{
    query: string;
    calls: number;
    plans: number;
    plan: number;
    exec: number;
  }>(sql`
    select query, calls::int, plans::int,
      (total_plan_time / nullif(calls, 0))::float8 as plan, (total_exec_time / nullif(calls, 0))::float8 as exec
    from pg_stat_statements
    where dbid = (select oid from pg_database where datname = current_database())
      and query not ilike '%pg_stat_statements%'
    order by total_exec_time + total_plan_time desc limit 10`);
  console.log("\n  calls      plans   plan ms  exec ms  statement");
  for (const r of rows)
    console.log(
      `  ${String(r.calls).padStart(8)} ${String(r.plans).padStart(8)}  ${Number(r.plan ?? 0).toFixed(4)}   ${Number(r.exec ?? 0).toFixed(4)}  ${r.query.replace(/\s+/g, " ").trim().slice(0, 90)}`,
    );
}

export async function benchCustomers(): Promise<void> {
  const db = await benchDatabase("customers");
  try {
    const seeding = performance.now();
    // A year of run history's month partitions, as a shop a year old has: the gate must not plan
    // over them (it reads runs by id only, one partition each).
    await getDb().execute(
      sql`select automation_run_partition_create(automation_run_month(now()) - i) from generate_series(1, 12) i`,
    );
    const tenant = await createTenant({ slug: "bench", name: "Bench", timezone: "UTC" });
    const automations: { id: string; priority: string }[] = [];
    for (const priority of PRIORITIES) {
      const [row] = await getDb().execute<{ id: string }>(sql`
        insert into automations (tenant_id, name, status, version, draft_graph, message_priority)
        values (${tenant.id}, ${`Marketing ${priority}`}, 'active', 1, '{"nodes":[],"edges":[]}'::jsonb, ${priority})
        returning id`);
      automations.push({ id: row!.id, priority });
    }
    await getDb().execute(sql`
      insert into entities (tenant_id, domain, id, data, email, updated_at)
      select ${tenant.id}, 'customer', 'c' || g,
        jsonb_build_object('email', 'c' || g || '@example.com', 'acceptsMarketing', true,
          'timezone', (${`{${ZONES.join(",")}}`}::text[])[1 + g % 5]),
        'c' || g || '@example.com', now()
      from generate_series(0, ${N - 1}) g`);
    const runs = await getDb().execute<{ id: string; a: string; c: string }>(sql`
      insert into automation_runs (tenant_id, automation_id, automation_version, status, event_id, trigger_node_id,
        event, domain, entity_id, created_at)
      select ${tenant.id}, a.id, 1, 'waiting', 'e' || g, 't',
        jsonb_build_object('id', 'e' || g, 'type', 'customer.created', 'domain', 'customer', 'entityId', 'c' || g,
          'entityStatus', null, 'payload', '{}'::jsonb, 'occurredAt', now()),
        'customer', 'c' || g, now()
      from generate_series(0, ${N - 1}) g
      cross join (select unnest(${`{${automations.map((a) => a.id).join(",")}}`}::uuid[]) as id) a
      returning id, automation_id as a, entity_id as c`);
    await getDb().execute(sql`analyze`);
    const rank = new Map(automations.map((a, i) => [a.id, i]));
    // Per customer, its three messages, highest priority first.
    const byCustomer = new Map<string, { runId: string; automationId: string }[]>();
    for (const run of runs) {
      const list = byCustomer.get(run.c) ?? [];
      list.push({ runId: run.id, automationId: run.a });
      byCustomer.set(run.c, list);
    }
    for (const list of byCustomer.values())
      list.sort((x, y) => rank.get(x.automationId)! - rank.get(y.automationId)!);
    const zoneOf = (customer: string) => ZONES[Number(customer.slice(1)) % 5]!;

    const times: number[] = [];
    let sent = 0;
    let sentInQuiet = 0;
    let allowed = 0;
    const lastSent = new Map<string, number>();
    const left = new Map([...byCustomer].map(([c, list]) => [c, [...list]]));
    /** When each waiting message is due again (its wait's time): it is presented only then. */
    const dueAt = new Map<string, number>();
    const customers = [...left.keys()]
      .sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)))
      .slice(0, DECIDED);
    const seedSeconds = (performance.now() - seeding) / 1000;
    const profiled = await statementsProfile();
    const started = performance.now();
    for (let round = 0; round < ROUNDS; round++) {
      const now = T0 + round * ROUND_MS;
      const decide = async (customer: string) => {
        const list = left.get(customer)!;
        const zone = zoneOf(customer);
        const last = lastSent.get(customer);
        const open = last === undefined || now - last >= DEFAULT_SHOP_CAP.hours * 3_600_000;
        if (list.length > 0 && open && !quietAt(zone, now)) allowed += 1;
        for (const message of [...list]) {
          if ((dueAt.get(message.runId) ?? 0) > now) continue;
          const t0 = performance.now();
          const gate = await getDb().transaction((tx) =>
            gateMarketing(
              tx,
              {
                tenantId: tenant.id,
                customerId: customer,
                automationId: message.automationId,
                runId: message.runId,
                nodeId: "mail",
                // The event that started the run (as in a run): the gate looks for its runs of
                // higher-priority automations still on their way.
                eventId: `e${customer.slice(1)}`,
                path: [],
                pathChanged: null,
              },
              new Date(now),
            ),
          );
          times.push(performance.now() - t0);
          if (gate.go) {
            sent += 1;
            if (quietAt(zone, now)) sentInQuiet += 1;
            lastSent.set(customer, now);
            list.splice(list.indexOf(message), 1);
          } else if (gate.skip) list.splice(list.indexOf(message), 1);
          else dueAt.set(message.runId, gate.until.getTime());
        }
      };
      // CONCURRENCY customers at once (each one's messages in turn, as one customer's lock would).
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          for (let i = next++; i < customers.length; i = next++) await decide(customers[i]!);
        }),
      );
    }
    const seconds = (performance.now() - started) / 1000;
    times.sort((a, b) => a - b);
    const mean = times.reduce((s, t) => s + t, 0) / times.length;
    const postgres = profiled ? await statementsTime() : null;
    if (profiled) await statementsBreakdown();
    const postgresMs = postgres ? postgres.gateMs / times.length : null;
    report("customers", {
      customers: N,
      customersDecided: DECIDED,
      zones: ZONES.length,
      automations: automations.length,
      decisions: times.length,
      decisionP50Ms: Number(percentile(times, 50).toFixed(3)),
      decisionP99Ms: Number(percentile(times, 99).toFixed(3)),
      decisionMeanMs: Number(mean.toFixed(3)),
      // Postgres' own time (pg_stat_statements: execution and planning) per decision: the gate's
      // statements (lock, read, sends, write), and with the transaction's BEGIN and COMMIT (the
      // commit is the sending transaction's: its WAL flush). Null unless the cluster was started
      // with TILLFLOW_PG_PROFILE=1 ("not measured").
      postgresMsPerDecision: postgresMs === null ? UNMEASURED : Number(postgresMs.toFixed(4)),
      postgresMsPerDecisionWithCommit: postgres
        ? Number((postgres.totalMs / times.length).toFixed(4))
        : UNMEASURED,
      slowestStatementMeanMs: postgres ? Number(postgres.slowestMeanMs.toFixed(4)) : UNMEASURED,
      concurrency: CONCURRENCY,
      seedSeconds: Number(seedSeconds.toFixed(1)),
      seconds: Number(seconds.toFixed(1)),
      sent,
      allowedByCap: allowed,
      sentEqualsAllowed: sent === allowed,
      sentInQuietHours: sentInQuiet,
      sendsRows: await count(
        sql`select count(*)::int as n from customer_message_sends where tenant_id = ${tenant.id}`,
      ),
      deferredWaiting: await count(
        sql`select count(*)::int as n from message_deferrals where tenant_id = ${tenant.id} and status = 'waiting'`,
      ),
      quietHours: `${DEFAULT_QUIET_HOURS.start}-${DEFAULT_QUIET_HOURS.end}`,
      meetsTarget: (postgresMs ?? percentile(times, 50)) <= 0.5 && sentInQuiet === 0 && sent === allowed,
    });
  } finally {
    await db.drop();
  }
}
