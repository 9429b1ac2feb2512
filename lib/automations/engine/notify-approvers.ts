import { sql } from "drizzle-orm";
import { appUrl } from "@/lib/auth/auth";
import type { Tx } from "@/lib/db/client";
import { escapeHtml } from "@/lib/automations/tokens/render";
import { entityLabel } from "@/lib/domains/labels";
import { handleLabel } from "@/lib/automations/nodes/catalog";
import { formatInZone } from "@/lib/time/cron";
import { enqueueJobs } from "@/lib/jobs";
import type { LegContext } from "./leg";
import { config } from "@/lib/config/config";
import { quorumOf } from "@/lib/automations/nodes/timing/quorum";
import { tally } from "@/lib/automations/engine/votes";

/** When an approval times out, in the shop's zone: "on Fri, 4 Dec 2026, 10:00 CET". */
export function timesOut(resumeAt: unknown, timeZone: string): string {
  const at = typeof resumeAt === "string" || resumeAt instanceof Date ? new Date(resumeAt) : null;
  return at && !Number.isNaN(at.getTime())
    ? `on ${formatInZone(at, timeZone)}`
    : "when its time limit passes";
}

/**
 * The link an approval's emails carry: the Approvals inbox with that approval marked. A page, never
 * an action: mail scanners open links, so a GET of it only shows the approval, and deciding takes a
 * button press (a POST to /api/v1/approvals/:waitId).
 */
export function approvalLink(waitId: string): string {
  return `${appUrl()}/approvals?wait=${encodeURIComponent(waitId)}`;
}

/** The roles that may decide an approval asked of `role`. */
export function decidingRoles(role: unknown): string[] {
  return role === "admin" ? ["admin"] : ["editor", "admin"];
}

/**
 * When approvals start, everyone in the shop who may decide them gets an email in the outbox (and
 * through SMTP when it is configured) saying what is asked, about which record, and linking to
 * it — in the transaction that creates the wait, so a decision is never asked for twice.
 */
export async function notifyApprovers(
  tx: Tx,
  asked: { waitId: string; nodeId: string; leg: LegContext; output: Record<string, unknown> }[],
): Promise<void> {
  if (asked.length === 0) return;
  const rows: StaffEmail[] = [];
  for (const { waitId, nodeId, leg, output } of asked) {
    const title = String(output.title ?? "A decision");
    const about = leg.entity ? entityLabel(leg.entity.domain, leg.entity.id, leg.entity.data) : null;
    const link = approvalLink(waitId);
    // A quorum asks its people (roles and teams, not the starter where self-approval is off).
    const users = await quorumRecipients(
      tx,
      { id: waitId, tenantId: leg.tenantId, runId: leg.runId },
      output,
    );
    rows.push({
      t: leg.tenantId,
      r: leg.runId,
      n: nodeId,
      roles: decidingRoles(output.approverRole),
      ...(users ? { users } : {}),
      subject: `Approval needed: ${title}`,
      html: [
        `<p>'${escapeHtml(leg.automationName)}' is waiting for your decision: <strong>${escapeHtml(title)}</strong>.</p>`,
        about ? `<p>About ${escapeHtml(about)}.</p>` : "",
        `<p>It times out ${escapeHtml(timesOut(output.resumeAt, leg.timeZone))} and then follows '${handleLabel("timed_out")}'.</p>`,
        `<p><a href="${escapeHtml(link)}">Approve or reject it</a></p>`,
      ].join("\n"),
    });
  }
  await emailStaff(tx, rows);
}

/**
 * The members a quorum approval's email goes to: those who have not voted and still may (null for a
 * step with `approverRole` alone, whose email goes to the role as before).
 */
export async function quorumRecipients(
  tx: Tx,
  wait: { id: string; tenantId: string; runId: string },
  output: Record<string, unknown>,
): Promise<string[] | null> {
  if (!quorumOf(output).quorum) return null;
  const { candidates } = await tally(tx, wait, output);
  return candidates.flatMap((c) => (c.voter.startsWith("user:") ? [c.voter.slice(5)] : []));
}

/** One email to the shop's staff of some roles, about a step of a run. */
export interface StaffEmail {
  /** The tenant, run and node the email is about (no run: an alert, lib/alerts/). */
  t: string;
  r: string | null;
  n: string;
  /** Every member with one of these roles gets it. */
  roles: string[];
  /** Instead of `roles`: exactly these members (a quorum's people who have not voted yet). */
  users?: string[];
  subject: string;
  html: string;
}

/**
 * Writes emails to the members of the given roles into the outbox (and queues them for SMTP when
 * it is configured), in the caller's transaction: an email is written exactly when the change it
 * tells of commits. Shared by the approval's first email and its reminder and escalation.
 */
export async function emailStaff(tx: Tx, rows: StaffEmail[]): Promise<number> {
  if (rows.length === 0) return 0;
  const smtp = Boolean(config().SMTP_URL);
  const emails = await tx.execute<{ id: string }>(sql`
    insert into outbox_emails (tenant_id, run_id, node_id, "to", subject, body_html, status)
    select v.t, v.r, v.n, u.email, v.subject, v.html, ${smtp ? "queued" : "stored"}
    from json_to_recordset(${JSON.stringify(rows)}::json) as v(t uuid, r uuid, n text, roles text[], users text[], subject text, html text)
    join memberships m on m.tenant_id = v.t
      and (case when v.users is null then m.role::text = any(v.roles) else m.user_id = any(v.users) end)
    join users u on u.id = m.user_id
    returning id`);
  if (smtp)
    await enqueueJobs(
      tx,
      emails.map((e) => ({
        task: "email_send" as const,
        payload: { outboxId: e.id },
        jobKey: `email:${e.id}`,
      })),
    );
  return emails.length;
}
