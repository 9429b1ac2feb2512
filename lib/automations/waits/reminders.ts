import { sql, type SQL } from "drizzle-orm";
import { TILLFLOW_ACTOR } from "@/lib/audit";
import { getDb, type Tx } from "@/lib/db/client";
import { isDomain } from "@/lib/domains/domains";
import { entityLabel } from "@/lib/domains/labels";
import {
  approvalLink,
  decidingRoles,
  emailStaff,
  quorumRecipients,
  type StaffEmail,
} from "@/lib/automations/engine/notify-approvers";
import { recheckQuorums } from "@/lib/automations/engine/votes";
import { followUpEmail, type FollowUpKind } from "./follow-up-emails";

/**
 * Approval reminders and escalation (issue 28, SPEC §2 "Alerts and caps"): an approval nobody has
 * decided reminds its approvers once after its step's `remindAfterHours`, then tells the shop's
 * admins once after `escalateAfterHours` — both before its time-out, when the run follows
 * 'Timed out' anyway.
 *
 * Run every minute by the worker's `approval_remind` task. Each follow-up is claimed by one
 * statement, `update … set reminded_at = now … where reminded_at is null … returning`, and its
 * emails and audit entry are written in the same transaction: a worker killed before the commit
 * leaves the approval unclaimed for the next tick, one killed after has sent it, so it is never
 * lost and never doubled. Two workers ticking at once skip each other's rows (`skip locked`).
 *
 * Only pending approvals count, found through the partial index
 * `automation_run_waits_pending_approvals_idx` (created_at, where pending approvals): one decided
 * (even before its run resumes), decided as timed out, past its time-out, cancelled, or of an
 * automation that is not active is never reminded.
 */

/** The approvals one tick claims per follow-up; the next tick takes the rest. */
const BATCH = 500;

/** The follow-up's step setting and the wait column that records it was sent. */
const FOLLOW_UPS: Record<FollowUpKind, { hours: string; column: string; audit: string }> = {
  remind: { hours: "remindAfterHours", column: "reminded_at", audit: "approval.reminded" },
  escalate: { hours: "escalateAfterHours", column: "escalated_at", audit: "approval.escalated" },
};

export interface FollowUpTotals {
  /** Approvals whose approvers were reminded in this tick. */
  reminded: number;
  /** Approvals the shop's admins were told of in this tick. */
  escalated: number;
  /** Emails written to the outbox. */
  emails: number;
}

/** One claimed approval with what its email says. */
interface Claimed extends Record<string, unknown> {
  id: string;
  tenant_id: string;
  run_id: string;
  automation_id: string;
  node_id: string;
  created_at: string | Date;
  resume_at: string | Date;
  reminded_at: string | Date | null;
  automation_name: string;
  timezone: string;
  output: Record<string, unknown> | null;
  domain: string | null;
  entity_id: string | null;
  entity_data: Record<string, unknown> | null;
}

const asDate = (value: string | Date) => (value instanceof Date ? value : new Date(value));

/**
 * The ids of the approvals whose follow-up of `kind` is due at `at`, oldest first. The literal
 * `status = 'pending' and kind = 'approval'` let the planner use the partial index
 * `automation_run_waits_pending_approvals_idx`; the earliest any follow-up can be due (1 hour
 * after the ask) bounds its range.
 */
export function dueApprovalsSql(kind: FollowUpKind, at: Date): SQL {
  const { hours, column } = FOLLOW_UPS[kind];
  const now = at.toISOString();
  return sql`
    select w.id
    from automation_run_waits w
    join automation_run_steps s on s.id = w.step_id and s.run_id = w.run_id
    join automations a on a.id = w.automation_id
    where w.status = 'pending' and w.kind = 'approval'
      and w.created_at <= ${now}::timestamptz - interval '1 hour'
      and w.${sql.raw(column)} is null
      and w.decision is null and w.decided_by is null
      and w.resume_at > ${now}::timestamptz
      and a.status = 'active'
      and jsonb_typeof(s.output -> ${hours}::text) = 'number'
      and w.created_at + (s.output ->> ${hours}::text)::numeric * interval '1 hour' <= ${now}::timestamptz
    order by w.created_at`;
}

/**
 * Claims the approvals whose follow-up of `kind` is due at `now` and marks them sent, returning
 * each with the facts its email needs.
 */
async function claimDue(tx: Tx, kind: FollowUpKind, now: Date): Promise<Claimed[]> {
  const col = sql.raw(FOLLOW_UPS[kind].column);
  const at = now.toISOString();
  return tx.execute<Claimed>(sql`
    with due as (${dueApprovalsSql(kind, now)} limit ${BATCH} for update of w skip locked),
    claimed as (
      update automation_run_waits w set ${col} = ${at}::timestamptz
      from due
      where w.id = due.id and w.status = 'pending' and w.${col} is null
      returning w.id, w.tenant_id, w.run_id, w.automation_id, w.node_id, w.step_id, w.event,
        w.created_at, w.resume_at, w.reminded_at
    )
    select c.id, c.tenant_id, c.run_id, c.automation_id, c.node_id, c.created_at, c.resume_at,
      c.reminded_at, a.name as automation_name, t.timezone, s.output,
      c.event ->> 'domain' as domain, c.event ->> 'entityId' as entity_id, e.data as entity_data
    from claimed c
    join automations a on a.id = c.automation_id
    join tenants t on t.id = c.tenant_id
    left join automation_run_steps s on s.id = c.step_id and s.run_id = c.run_id
    left join entities e on e.tenant_id = c.tenant_id and e.domain = c.event ->> 'domain'
      and e.id = c.event ->> 'entityId'`);
}

/**
 * The email of one claimed approval, to its approvers (a reminder: of a quorum, those who have not
 * voted yet) or to the admins.
 */
async function emailFor(tx: Tx, kind: FollowUpKind, row: Claimed): Promise<StaffEmail> {
  const output = row.output ?? {};
  const about =
    row.domain && isDomain(row.domain) && row.entity_id
      ? entityLabel(row.domain, row.entity_id, row.entity_data ?? {})
      : null;
  const { subject, html } = followUpEmail({
    kind,
    automationName: row.automation_name,
    title: typeof output.title === "string" && output.title.trim() ? output.title : "A decision",
    about,
    askedAt: asDate(row.created_at),
    timesOutAt: asDate(row.resume_at),
    remindedAt: row.reminded_at ? asDate(row.reminded_at) : null,
    timeZone: row.timezone,
    link: approvalLink(row.id),
  });
  const users =
    kind === "remind"
      ? await quorumRecipients(tx, { id: row.id, tenantId: row.tenant_id, runId: row.run_id }, output)
      : null;
  return {
    t: row.tenant_id,
    r: row.run_id,
    n: row.node_id,
    roles: kind === "remind" ? decidingRoles(output.approverRole) : ["admin"],
    ...(users ? { users } : {}),
    subject,
    html,
  };
}

/** One audit entry per follow-up sent, so the shop's Activity says it happened and when. */
async function auditFollowUps(tx: Tx, kind: FollowUpKind, rows: Claimed[], now: Date): Promise<void> {
  const entries = rows.map((row) => ({
    t: row.tenant_id,
    s: row.id,
    d: {
      automationId: row.automation_id,
      runId: row.run_id,
      title: typeof row.output?.title === "string" ? row.output.title : null,
    },
  }));
  await tx.execute(sql`
    insert into audit_events (tenant_id, actor, action, subject_type, subject_id, detail, created_at)
    select v.t, ${TILLFLOW_ACTOR}, ${FOLLOW_UPS[kind].audit}, 'approval', v.s, v.d, ${now.toISOString()}::timestamptz
    from json_to_recordset(${JSON.stringify(entries)}::json) as v(t uuid, s text, d jsonb)`);
}

/**
 * Sends the follow-ups due at `now` (the clock unless a test travels in time): the reminders
 * first, then the escalations, in one transaction. Safe to run any number of times: what was sent
 * is never sent again.
 */
export async function sendApprovalFollowUps(options: { now?: Date } = {}): Promise<FollowUpTotals> {
  const now = options.now ?? new Date();
  return getDb().transaction(async (tx) => {
    const totals: FollowUpTotals = { reminded: 0, escalated: 0, emails: 0 };
    for (const kind of ["remind", "escalate"] as const) {
      const rows = await claimDue(tx, kind, now);
      if (rows.length === 0) continue;
      const emails: StaffEmail[] = [];
      for (const row of rows) emails.push(await emailFor(tx, kind, row));
      totals.emails += await emailStaff(tx, emails);
      await auditFollowUps(tx, kind, rows, now);
      totals[kind === "remind" ? "reminded" : "escalated"] += rows.length;
    }
    return totals;
  });
}

/**
 * Rejects the quorum approvals that can no longer be approved (issue 53): someone left the shop or
 * lost their role since the last check. Run by the same every-minute task, so an approval that
 * became impossible follows 'Rejected' within a minute. Returns how many did.
 */
export async function rejectImpossibleQuorums(): Promise<number> {
  return getDb().transaction((tx) => recheckQuorums(tx, null));
}
