/**
 * The chaos suite's messaging round (issue 51): many customers with deferred and quiet-hour-held
 * marketing emails — three automations (high, normal, low priority) aiming at the same customers,
 * a shop cap of 1 per 16 hours, quiet hours 21:00–08:00 in five zones (three awake now, two
 * asleep) — while workers are SIGKILLed again and again as the deferrals fall due and send. The
 * shop's clock moves 4 hours a step (its sends, deferrals, waits and their jobs shifted back, as
 * tests/messaging do) over 44 hours; quiet hours are the wall clock's, so the asleep zones stay
 * asleep. Afterwards:
 *
 * - nothing twice: at most one email per (run, step), and one delivery per dedupe key;
 * - nothing lost: every message either sent, or still waiting (its deferral `waiting`, its wait
 *   pending, its run `waiting`); no run failed;
 * - none in quiet hours: each email's time of writing, read in its customer's zone;
 * - the cap exactly: an awake customer got all three (at 0, 16 and 32 hours), an asleep one none.
 */
import fs from "node:fs";
import { sql } from "drizzle-orm";
import { createApiKey } from "@/lib/auth/api-keys";
import { resolveCaller } from "@/lib/auth/resolve-caller";
import { createTenant } from "@/lib/auth/tenants";
import { createAutomation } from "@/lib/automations/lifecycle/create";
import { publishAutomation } from "@/lib/automations/lifecycle/publish";
import { recordEvents } from "@/lib/automations/engine/start/events";
import { getDb } from "@/lib/db/client";
import { setAutomationMessaging, setShopMessaging } from "@/lib/messaging/store";
import { WorkerFleet } from "./fleet";
import { patiently, sleep } from "./scenario";

export interface MessagingChaosOptions {
  customers: number;
  workers: number;
  /** Milliseconds between kills: a random value in this range. */
  killEveryMs: [number, number];
  logDir: string | null;
  log: (line: string) => void;
}

export interface MessagingChaosResult {
  customers: number;
  messages: number;
  zones: { zone: string; asleep: boolean }[];
  kills: number;
  sent: number;
  allowed: number;
  waiting: number;
  duplicated: number;
  lost: number;
  inQuietHours: number;
  failedRuns: number;
  seconds: number;
  problems: string[];
}

const STEP_HOURS = 4;
const STEPS = 11;

/** Candidate zones, one per offset; five are chosen by their local hour now. */
const CANDIDATES = [
  "Pacific/Honolulu",
  "America/Anchorage",
  "America/Los_Angeles",
  "America/Denver",
  "America/Chicago",
  "America/New_York",
  "America/Sao_Paulo",
  "Atlantic/Cape_Verde",
  "Europe/London",
  "Europe/Berlin",
  "Europe/Athens",
  "Europe/Moscow",
  "Asia/Dubai",
  "Asia/Karachi",
  "Asia/Dhaka",
  "Asia/Bangkok",
  "Asia/Shanghai",
  "Asia/Tokyo",
  "Australia/Sydney",
  "Pacific/Noumea",
  "Pacific/Auckland",
];

const minuteOfDay = (zone: string, at: Date) => {
  const [h, m] = new Intl.DateTimeFormat("en-GB", {
    timeZone: zone,
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  })
    .format(at)
    .split(":")
    .map(Number);
  return h! * 60 + m!;
};
const QUIET_START = 21 * 60;
const QUIET_END = 8 * 60;
const quietAt = (zone: string, at: Date) => {
  const m = minuteOfDay(zone, at);
  return m >= QUIET_START || m < QUIET_END;
};
/** Minutes until the zone's next quiet-hours boundary. */
const toBoundary = (zone: string, at: Date) => {
  const m = minuteOfDay(zone, at);
  return Math.min(
    ...[QUIET_START, QUIET_END, QUIET_START + 1440, QUIET_END + 1440].map((b) => b - m).filter((d) => d > 0),
  );
};

/** Three awake zones and two asleep, each at least 40 minutes from a boundary (the round lasts less). */
export function chooseZones(now = new Date()): { zone: string; asleep: boolean }[] {
  const safe = CANDIDATES.filter((zone) => toBoundary(zone, now) >= 40);
  const awake = safe.filter((zone) => !quietAt(zone, now)).slice(0, 3);
  const asleep = safe.filter((zone) => quietAt(zone, now)).slice(0, 2);
  return [
    ...awake.map((zone) => ({ zone, asleep: false })),
    ...asleep.map((zone) => ({ zone, asleep: true })),
  ];
}

/** Moves the shop's clock on: what was recorded and what is due moves back (not the emails' times). */
async function advance(tenantId: string, hours: number) {
  const by = `${hours} hours`;
  await getDb().transaction(async (tx) => {
    await tx.execute(
      sql`update customer_message_sends set sent_at = sent_at - ${by}::interval where tenant_id = ${tenantId}`,
    );
    await tx.execute(sql`update message_deferrals set deferred_at = deferred_at - ${by}::interval,
      due_at = due_at - ${by}::interval where tenant_id = ${tenantId}`);
    await tx.execute(
      sql`update automation_runs set created_at = created_at - ${by}::interval where tenant_id = ${tenantId}`,
    );
    await tx.execute(sql`with moved as (
        update automation_run_waits set resume_at = resume_at - ${by}::interval
        where tenant_id = ${tenantId} and status = 'pending' returning id::text as key)
      update graphile_worker._private_jobs j set run_at = j.run_at - ${by}::interval
      from moved where j.key = moved.key`);
  });
}

/** Until nothing of the shop is due or on its way (or the timeout). */
async function quiesce(tenantId: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const [row] = await getDb()
      .execute<{ busy: number }>(
        sql`select
        (select count(*) from automation_runs where tenant_id = ${tenantId} and status in ('queued', 'running'))
        + (select count(*) from automation_run_waits where tenant_id = ${tenantId} and status = 'pending'
            and resume_at <= now()) as busy`,
      )
      .catch(() => [{ busy: 1 }]);
    if (Number(row!.busy) === 0) return true;
    await sleep(300);
  }
  return false;
}

export async function runMessagingChaos(options: MessagingChaosOptions): Promise<MessagingChaosResult> {
  const { log } = options;
  const started = Date.now();
  const problems: string[] = [];
  const zones = chooseZones();
  if (zones.length < 5) problems.push(`Only ${zones.length} zones were far enough from a boundary.`);
  const tenant = await createTenant({
    slug: `chaos-msg-${Date.now().toString(36)}`,
    name: "Chaos messaging",
  });
  const { key } = await createApiKey(tenant.id, { name: "chaos", role: "admin" });
  const caller = (await resolveCaller(new Headers({ authorization: `Bearer ${key}` })))!;
  await setShopMessaging(caller, {
    quietHours: { start: "21:00", end: "08:00" },
    cap: { count: 1, hours: 16 },
  });
  const automations: string[] = [];
  for (const priority of ["high", "normal", "low"] as const) {
    const automation = await createAutomation(caller, {
      name: `Marketing (${priority})`,
      graph: {
        nodes: [
          { id: "t", type: "auto.trigger.customer_created", params: {} },
          {
            id: "mail",
            type: "auto.action.send_email",
            params: {
              to: "{entity.email}",
              subject: `Hello (${priority})`,
              body: "Hi.",
              purpose: "marketing",
            },
          },
        ],
        edges: [{ id: "t-mail", source: "t", sourceHandle: "out", target: "mail" }],
      },
    });
    await publishAutomation(caller, automation.id, {});
    await setAutomationMessaging(caller, automation.id, { priority });
    automations.push(automation.id);
  }
  const ids = Array.from({ length: options.customers }, (_, i) => `m-${String(i).padStart(6, "0")}`);
  const zoneOf = (i: number) => zones[i % zones.length]!;
  await getDb().execute(sql`
    insert into entities (tenant_id, domain, id, data, email, updated_at)
    select ${tenant.id}, 'customer', 'm-' || lpad(g::text, 6, '0'),
      jsonb_build_object('email', 'm' || g || '@example.test', 'acceptsMarketing', true,
        'timezone', (${`{${zones.map((z) => z.zone).join(",")}}`}::text[])[1 + g % ${zones.length}]),
      'm' || g || '@example.test', now()
    from generate_series(0, ${options.customers - 1}) g`);

  if (options.logDir) fs.mkdirSync(options.logDir, { recursive: true });
  // A killed worker's jobs are free again 5 s after its last heartbeat (as the tests' workers).
  const env = { ...process.env, TILLFLOW_SCHEDULES: "off", TILLFLOW_WORKER_DEAD_AFTER_MS: "5000" };
  const fleet = new WorkerFleet(options.workers, env, options.logDir, log);
  fleet.startAll();
  let done = false;
  let kills = 0;
  const killer = (async () => {
    while (!done) {
      await sleep(options.killEveryMs[0] + Math.random() * (options.killEveryMs[1] - options.killEveryMs[0]));
      if (done) break;
      // Only a worker that has started (its heartbeat is in): one still loading would never run.
      const beating = await getDb()
        .execute<{ pid: number }>(sql`select pid from worker_heartbeats where stopped_at is null`)
        .catch(() => []);
      const started = Array.from({ length: fleet.size }, (_, n) => n).filter((n) =>
        beating.some((b) => b.pid === fleet.pidOf(n)),
      );
      // One started worker is always left running: on a slow machine a restarted one takes long to load.
      if (started.length < 2) continue;
      const slot = started[Math.floor(Math.random() * started.length)]!;
      await fleet.kill(slot);
      kills++;
      setTimeout(() => fleet.start(slot), Math.random() * 1_500);
    }
  })();
  await patiently(
    () =>
      getDb().transaction((tx) =>
        recordEvents(
          tx,
          tenant.id,
          ids.map((entityId) => ({ type: "customer.created", domain: "customer" as const, entityId })),
        ),
      ),
    "customer events",
    log,
  );
  log(
    `  messaging: ${ids.length} customers, ${ids.length * 3} messages; zones ${zones.map((z) => `${z.zone}${z.asleep ? " (asleep)" : ""}`).join(", ")}`,
  );
  for (let step = 0; step <= STEPS; step++) {
    if (!(await quiesce(tenant.id, 600_000)))
      problems.push(`Step ${step}: the shop did not settle in 10 minutes.`);
    // A yield's minute: its wait falls due and is decided before the clock moves on.
    await advance(tenant.id, 2 / 60);
    if (!(await quiesce(tenant.id, 600_000)))
      problems.push(`Step ${step}: the yields did not settle in 10 minutes.`);
    if (step < STEPS) await advance(tenant.id, STEP_HOURS - 2 / 60);
    log(`  messaging: hour ${step * STEP_HOURS} settled (${kills} kills so far)`);
  }
  done = true;
  await killer;
  await fleet.stopAll();

  const emails = await getDb().execute<{
    run_id: string;
    node_id: string;
    to: string;
    created_at: string;
    n: number;
  }>(sql`
    select run_id::text, node_id, "to", min(created_at)::text as created_at, count(*)::int as n
    from outbox_emails where tenant_id = ${tenant.id} group by run_id, node_id, "to"`);
  const duplicateDeliveries = await getDb().execute<{ n: number }>(sql`
    select count(*)::int as n from (select dedupe_key from action_deliveries where tenant_id = ${tenant.id}
      group by dedupe_key having count(*) > 1) d`);
  const zoneByEmail = new Map(ids.map((_, i) => [`m${i}@example.test`, zoneOf(i)]));
  let inQuietHours = 0;
  for (const email of emails) {
    const zone = zoneByEmail.get(email.to);
    if (zone && quietAt(zone.zone, new Date(email.created_at))) inQuietHours++;
  }
  const duplicated = emails.filter((e) => e.n > 1).length + duplicateDeliveries[0]!.n;
  const allowed = ids.filter((_, i) => !zoneOf(i).asleep).length * 3;
  const [state] = await getDb().execute<{ waiting: number; unaccounted: number; failed: number }>(sql`
    select
      (select count(*) from message_deferrals d where d.tenant_id = ${tenant.id} and d.status = 'waiting')::int as waiting,
      (select count(*) from automation_runs r where r.tenant_id = ${tenant.id}
        and not exists (select 1 from outbox_emails o where o.run_id = r.id)
        and not (r.status = 'waiting'
          and exists (select 1 from message_deferrals d where d.run_id = r.id and d.status = 'waiting')
          and exists (select 1 from automation_run_waits w where w.run_id = r.id and w.status = 'pending'
            and w.kind = 'deferred')))::int as unaccounted,
      (select count(*) from automation_runs where tenant_id = ${tenant.id}
        and status in ('failed', 'partial', 'cancelled'))::int as failed`);
  const result: MessagingChaosResult = {
    customers: ids.length,
    messages: ids.length * 3,
    zones,
    kills,
    sent: emails.length,
    allowed,
    waiting: state!.waiting,
    duplicated,
    lost: state!.unaccounted,
    inQuietHours,
    failedRuns: state!.failed,
    seconds: Math.round((Date.now() - started) / 1000),
    problems,
  };
  if (duplicated > 0) problems.push(`${duplicated} message(s) sent twice.`);
  if (result.lost > 0) problems.push(`${result.lost} message(s) neither sent nor waiting.`);
  if (inQuietHours > 0) problems.push(`${inQuietHours} email(s) written in their customer's quiet hours.`);
  if (result.sent !== allowed) problems.push(`Sent ${result.sent}, the cap allows ${allowed}.`);
  if (result.failedRuns > 0) problems.push(`${result.failedRuns} run(s) failed.`);
  if (result.sent + result.waiting !== result.messages)
    problems.push(`Sent ${result.sent} + waiting ${result.waiting} ≠ ${result.messages} messages.`);
  return result;
}

export const messagingPassed = (result: MessagingChaosResult) => result.problems.length === 0;
