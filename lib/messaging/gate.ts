import { sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { executePrepared } from "@/lib/db/prepared";
import type { DeferralKind } from "@/lib/db/schema";
import { customerZone, type CustomerZone } from "./zone";
import { decideMessage, type MessageSituation } from "./decide";
import { wallClock } from "./quiet";
import { messagingOf, PRIORITY_RANK, type MessagingSettings, type Priority } from "./settings";
import { lockCustomers } from "./locks";

/**
 * The gate a marketing message passes in the transaction that would send it (Send email's
 * executor): quiet hours, the shop's cap and the priority between deferred messages, decided under
 * a transaction-scoped advisory lock per customer, so two messages to one customer — from two
 * automations, two workers, two batches — are decided one after the other and the second sees the
 * first's send (exactly one at a time: tests/messaging/deferrals.test.ts). The lock is its own
 * statement (`locks.ts`: taken in key order, so it cannot deadlock; none when the phase took it
 * already): under READ COMMITTED a statement's snapshot is taken when it starts, so the reads
 * come after it. Every statement runs in the sending transaction (`db`): the read sees what the
 * transaction wrote before it. Four short statements a message (lock, read, write; the sends only
 * under a cap), a fifth only when a yield rests on runs that may have ended (`liveRuns`).
 * A message whose send is recorded already (an HTTP step's gate commits with its phase, its
 * request goes after: a crash between them) goes again without a second send row.
 */

export interface GateInput {
  tenantId: string;
  customerId: string;
  automationId: string;
  runId: string;
  nodeId: string;
  /** The event that started the run: runs it started for higher-priority automations go first. */
  eventId: string;
  /** The conditions the walk passed on the way to the step (kept for the check when it goes). */
  path: { nodeId: string; result: boolean }[];
  /** Set on a deferred message's turn when a condition on its path no longer holds: why. */
  pathChanged: string | null;
  /** Whether to decide only (a dry run): nothing is locked or written. */
  dryRun?: boolean;
}

export type GateOutcome =
  | { go: true; zone: CustomerZone }
  | { go: false; skip: "expired" | "conditions"; sentence: string }
  | {
      go: false;
      skip?: undefined;
      kind: DeferralKind;
      until: Date;
      sentence: string;
      zone: CustomerZone;
      shopZone: string;
    };

interface Read {
  messaging: Partial<MessagingSettings>;
  shop_zone: string;
  priority: Priority;
  expire_after_hours: number;
  data: Record<string, unknown> | null;
  mine_deferred_at: string | null;
  others: { runId: string; priority: number; deferredAt: string; dueAt: string }[] | null;
  siblings: string[] | null;
  already_sent: boolean;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

/** "08:00 in the customer's time (Europe/Berlin), 02:00 in the shop's (America/New_York)". */
export function bothClocks(until: Date, zone: string, shopZone: string, now: Date): string {
  const theirs = `${wallClock(zone, until, now)} in the customer's time (${zone})`;
  if (zone === shopZone) return `${theirs}, the shop's too`;
  return `${theirs}, ${wallClock(shopZone, until, now)} in the shop's (${shopZone})`;
}

function deferSentence(kind: DeferralKind, when: string, settings: MessagingSettings): string {
  switch (kind) {
    case "quiet":
      return `Waiting for quiet hours to end (${settings.quietHours?.start}–${settings.quietHours?.end}): sends at ${when}.`;
    case "cap":
      return `Deferred by the shop's limit of ${plural(settings.cap?.count ?? 1, "marketing message")} per customer every ${plural(settings.cap?.hours ?? 16, "hour")}: tries again at ${when}.`;
    case "yield":
      return `Deferred: a message of higher priority for this customer goes first; tries again at ${when}.`;
  }
}

/**
 * The gate's one read: the shop's settings, the automation's priority, the customer's zone, this
 * message's deferral, the customer's due rivals, the same event's runs of higher-priority
 * automations, and whether this message's send is recorded already. No partitioned table
 * (automation_runs is one): Postgres would plan every partition on every call (the plans before
 * and after: README.md). A run's liveness is read apart, by id, only when it could change the
 * answer (`liveRuns`).
 */
export function gateRead(input: GateInput, now: Date): SQL {
  return sql`
    select t.messaging, t.timezone as shop_zone, a.message_priority as priority, a.expire_after_hours,
      (select e.data from entities e
        where e.tenant_id = t.id and e.domain = 'customer' and e.id = ${input.customerId}) as data,
      (select d.deferred_at from message_deferrals d
        where d.run_id = ${input.runId}::uuid and d.node_id = ${input.nodeId} and d.status = 'waiting') as mine_deferred_at,
      (select json_agg(json_build_object('runId', d.run_id, 'priority', d.priority, 'deferredAt', d.deferred_at,
          'dueAt', d.due_at))
        from message_deferrals d
        where d.tenant_id = t.id and d.customer_id = ${input.customerId} and d.status = 'waiting'
          and d.due_at <= ${now.toISOString()}::timestamptz
          and not (d.run_id = ${input.runId}::uuid and d.node_id = ${input.nodeId})) as others,
      -- The runs the same event started for active automations of higher priority (by the
      -- one-run-per-automation-per-event keys, not partitioned): one still on its way may be about
      -- to send to this customer, and goes first.
      (select json_agg(k.run_id) from automations h
        join automation_run_keys k on k.automation_id = h.id and k.event_id = ${input.eventId}
        where a.message_priority <> 'high' and h.tenant_id = t.id and h.status = 'active' and h.id <> a.id
          and (h.message_priority = 'high' or (h.message_priority = 'normal' and a.message_priority = 'low'))
          and k.run_id <> ${input.runId}::uuid) as siblings,
      exists (select 1 from customer_message_sends s where s.tenant_id = t.id and s.customer_id = ${input.customerId}
        and s.run_id = ${input.runId}::uuid and s.node_id = ${input.nodeId}) as already_sent
    from tenants t join automations a on a.id = ${input.automationId}::uuid and a.tenant_id = t.id
    where t.id = ${input.tenantId}::uuid`;
}

export async function gateMarketing(db: DbOrTx, input: GateInput, now = new Date()): Promise<GateOutcome> {
  if (!input.dryRun) await lockCustomers(db, [input]);
  const [read] = await executePrepared<Read & Record<string, unknown>>(gateRead(input, now), db);
  if (!read) return { go: true, zone: { zone: "UTC", source: "shop" } };
  const zone = customerZone(read.data, read.shop_zone);
  if (read.already_sent) return { go: true, zone };
  const settings = messagingOf(read.messaging);
  const mine = read.mine_deferred_at ? new Date(read.mine_deferred_at) : null;

  if (mine && input.pathChanged) {
    if (!input.dryRun) await resolve(db, input, "skipped", input.pathChanged);
    return { go: false, skip: "conditions", sentence: input.pathChanged };
  }
  let sends: Date[] = [];
  if (settings.cap) {
    const rows = await executePrepared<{ sent_at: string }>(
      sql`
      select sent_at from customer_message_sends
      where tenant_id = ${input.tenantId}::uuid and customer_id = ${input.customerId}
        and sent_at > ${new Date(now.getTime() - settings.cap.hours * 3_600_000).toISOString()}::timestamptz
      order by sent_at desc limit ${settings.cap.count}`,
      db,
    );
    sends = rows.map((r) => new Date(r.sent_at));
  }
  const rivals = (read.others ?? []).map((o) => ({
    runId: o.runId,
    priority: Number(o.priority),
    deferredAt: new Date(o.deferredAt),
    dueAt: new Date(o.dueAt),
  }));
  const siblings = read.siblings ?? [];
  const situation: MessageSituation = {
    now,
    settings,
    zone: zone.zone,
    priority: PRIORITY_RANK[read.priority] ?? 2,
    expireAfterHours: Number(read.expire_after_hours),
    deferredAt: mine,
    sends,
    others: rivals,
    siblingAbove: siblings.length > 0,
  };
  let decision = decideMessage(situation);
  // Only a yield rests on rivals and siblings (the last of decideMessage's checks): it holds only
  // if one of their runs is still live — a rival waiting or running (a cancelled run's deferral
  // stays `waiting`), a sibling queued or running. Read by id: one partition each.
  if (!decision.go && !decision.expired && decision.kind === "yield") {
    const live = await liveRuns(db, [...siblings, ...rivals.map((r) => r.runId)]);
    decision = decideMessage({
      ...situation,
      others: rivals.filter((r) => live.get(r.runId) === "waiting" || live.get(r.runId) === "running"),
      siblingAbove: siblings.some((id) => live.get(id) === "queued" || live.get(id) === "running"),
    });
  }
  if (decision.go) {
    if (!input.dryRun) {
      await executePrepared(
        sql`
        insert into customer_message_sends (tenant_id, customer_id, automation_id, run_id, node_id, sent_at)
        values (${input.tenantId}::uuid, ${input.customerId}, ${input.automationId}::uuid, ${input.runId}::uuid,
          ${input.nodeId}, ${now.toISOString()}::timestamptz)`,
        db,
      );
      if (mine) await resolve(db, input, "sent", null);
    }
    return { go: true, zone };
  }
  if (decision.expired) {
    const sentence = `Skipped: deferred for more than ${plural(Number(read.expire_after_hours), "hour")} (this automation's expiry), so it was not sent.`;
    if (!input.dryRun) await resolve(db, input, "expired", sentence);
    return { go: false, skip: "expired", sentence };
  }
  const sentence = deferSentence(
    decision.kind,
    bothClocks(decision.until, zone.zone, read.shop_zone, now),
    settings,
  );
  if (!input.dryRun)
    await executePrepared(
      sql`
      insert into message_deferrals (tenant_id, customer_id, automation_id, run_id, node_id, priority, deferred_at,
        due_at, kind, path, reason)
      values (${input.tenantId}::uuid, ${input.customerId}, ${input.automationId}::uuid, ${input.runId}::uuid,
        ${input.nodeId}, ${PRIORITY_RANK[read.priority] ?? 2}, ${now.toISOString()}::timestamptz,
        ${decision.until.toISOString()}::timestamptz, ${decision.kind}, ${JSON.stringify(input.path)}::jsonb, ${sentence})
      on conflict (run_id, node_id) do update set due_at = excluded.due_at, kind = excluded.kind,
        reason = excluded.reason, status = 'waiting', resolved_at = null`,
      db,
    );
  return { go: false, kind: decision.kind, until: decision.until, sentence, zone, shopZone: read.shop_zone };
}

async function resolve(
  db: DbOrTx,
  input: GateInput,
  status: "sent" | "skipped" | "expired",
  reason: string | null,
) {
  await executePrepared(
    sql`
    update message_deferrals set status = ${status}, resolved_at = now(), reason = coalesce(${reason}, reason)
    where run_id = ${input.runId}::uuid and node_id = ${input.nodeId}`,
    db,
  );
}

/** The status of each of these runs that exists (a lookup by id reads one partition each). */
async function liveRuns(db: DbOrTx, ids: string[]): Promise<Map<string, string>> {
  const rows = await executePrepared<{ id: string; status: string }>(
    sql`select id::text as id, status from automation_runs where id = any(${`{${[...new Set(ids)].join(",")}}`}::uuid[])`,
    db,
  );
  return new Map(rows.map((r) => [r.id, r.status]));
}
