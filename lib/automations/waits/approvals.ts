import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { recordAudit } from "@/lib/audit";
import { actorLabel, type Caller } from "@/lib/identity/caller";
import { getDb, type DbOrTx } from "@/lib/db/client";
import { approvalVotes, automationRunSteps, automationRunWaits, entities } from "@/lib/db/schema";
import { isDomain } from "@/lib/domains/domains";
import { entityLabel } from "@/lib/domains/labels";
import { AppError, forbidden, isUuid, notFound, parseOrThrow } from "@/lib/errors";
import { automationNames } from "@/lib/automations/store/automation-names";
import type { WaitRow } from "@/lib/automations/store/waits";
import {
  quorumAsks,
  quorumOf,
  quorumSummary,
  type ApproverView,
  type Quorum,
  type VoteView,
} from "@/lib/automations/nodes/timing/quorum";
import {
  rulesOfVoter,
  settle,
  starterOf,
  teamIdsOf,
  teamNames,
  votesAndTeams,
  voterOf,
} from "@/lib/automations/engine/votes";

/**
 * Approvals: a run waiting at an Approval step until someone decides (SPEC §2 "Approvals"). A
 * decision is recorded on the wait and its step (who, when, note) and in the audit log, and the
 * wait's job is moved to now: the run resumes through the leg pipeline on the decided out, under
 * the wake table like any wake. Before the decision comes the timeout: the job, at `resume_at`,
 * finds no decision and the run follows `timed_out`.
 */

export const decisionInput = z.strictObject({
  decision: z.enum(["approved", "rejected"], { error: "must be 'approved' or 'rejected'" }),
  note: z.string().trim().max(2000, "is longer than 2,000 characters").optional(),
});

/** One approval (`GET /api/v1/approvals`, and the reply to a decision): its wait as the inbox shows it. */
export interface ApprovalView {
  /** The approval's wait: the id to decide it by. */
  waitId: string;
  runId: string;
  automationId: string;
  /** The automation's current name (null when it was deleted since). */
  automationName: string | null;
  nodeId: string;
  /** What the step asks ("Review order #1001"; "A decision" when it says nothing). */
  title: string;
  /** Who may decide: editors and admins, or admins only (of a quorum: its first role rule's, else editor). */
  approverRole: "editor" | "admin";
  /** The quorum's rules, a team's with its name (one rule `{role, required: 1}` for `approverRole` alone). */
  approvers: ApproverView[];
  /** Who it asks, in words: "2 admins and 1 from Finance". */
  asks: string;
  /** `any`: one rejection rejects; `majority`: more than half of those who may vote. */
  reject: "any" | "majority";
  /** The votes cast, oldest first. */
  votes: VoteView[];
  /** While pending: "1 of 2 admins, and 1 from Finance still needed"; null otherwise. */
  needed: string | null;
  /** Pending until decided; timed out when its wait resumed without a decision; cancelled when dropped. */
  status: "pending" | "approved" | "rejected" | "timed_out" | "cancelled";
  /** The record it is about, labelled as merchants name it (null for none, or an unknown domain). */
  entity: { domain: string; id: string; label: string } | null;
  askedAt: string;
  /** When it times out, or would have for a decided one (a decision moves the wait's own time). */
  timesOutAt: string;
  /** Who decided (an actor label), null while undecided. */
  decidedBy: string | null;
  decidedAt: string | null;
  /** The decider's note. */
  note: string | null;
  /** Why its wait was cancelled or dropped, in words. */
  reason: string | null;
  /** When its approvers were reminded (`remindAfterHours`), null until then. */
  remindedAt: string | null;
  /** When the shop's admins were told nobody had decided (`escalateAfterHours`), null until then. */
  escalatedAt: string | null;
}

/** A page of approvals (`GET /api/v1/approvals`). */
export interface ApprovalPage {
  items: ApprovalView[];
  /** The cursor of the next page; null on the last. */
  nextCursor: string | null;
}

function statusOf(wait: WaitRow): ApprovalView["status"] {
  if (wait.decision) return wait.decision;
  if (wait.status === "pending") return "pending";
  return wait.status === "resumed" ? "timed_out" : "cancelled";
}

/** Why a decision can no longer be taken, in words. */
function refusal(wait: WaitRow): AppError | null {
  const when = (at: Date | null) => (at ? ` at ${at.toISOString()}` : "");
  if (wait.decision)
    return new AppError(
      409,
      "conflict",
      `This approval was already ${wait.decision} by ${wait.decidedBy}${when(wait.decidedAt)}.`,
    );
  if (wait.decidedBy)
    return new AppError(
      409,
      "conflict",
      `${wait.decidedBy} already decided this approval as timed out${when(wait.decidedAt)}; the run follows 'Timed out'.`,
    );
  if (wait.status === "resumed")
    return new AppError(
      409,
      "conflict",
      `This approval timed out${when(wait.resolvedAt)}; the run followed 'Timed out'.`,
    );
  if (wait.status !== "pending")
    return new AppError(
      409,
      "conflict",
      `This approval is no longer waiting: ${wait.reason ?? "the run was cancelled."}`,
    );
  return null;
}

/** The 403 for a caller who may not vote on an approval, in words. */
function notAsked(quorum: Quorum, asks: string): AppError {
  if (!quorum.quorum)
    return forbidden(
      quorum.rules[0] && "role" in quorum.rules[0] && quorum.rules[0].role === "admin"
        ? "Only an admin can decide this approval."
        : "Viewers cannot decide approvals. Ask an admin for the editor role.",
    );
  return forbidden(`This approval asks ${asks}, and you are not among them.`);
}

const SELF_REFUSAL =
  "You started this run, and this approval must be decided by someone else. Ask another approver.";

/**
 * What the approval's step asked (title, approvers, timeout), after checking the caller may vote
 * on it — also for "decide as timed out now" (resume-now on an approval). 403 otherwise: not of
 * the role or team any rule asks, or the run's starter where self-approval is off.
 */
export async function assertMayDecide(
  tx: DbOrTx,
  caller: Caller,
  wait: Pick<WaitRow, "stepId" | "runId">,
): Promise<Record<string, unknown>> {
  return (await mayVote(tx, caller, wait)).asked;
}

async function mayVote(tx: DbOrTx, caller: Caller, wait: Pick<WaitRow, "stepId" | "runId">) {
  const [step] = wait.stepId
    ? await tx
        .select({ output: automationRunSteps.output })
        .from(automationRunSteps)
        .where(eq(automationRunSteps.id, wait.stepId))
    : [];
  const asked = step?.output ?? {};
  const quorum = quorumOf(asked);
  const voter = await voterOf(tx, caller);
  const rules = await rulesOfVoter(tx, caller.tenant.id, quorum, voter);
  if (rules.length === 0) {
    const names = await teamNames(tx, caller.tenant.id, teamIdsOf(quorum));
    throw notAsked(
      quorum,
      quorumAsks(quorum.rules, (id) => names.get(id) ?? "a deleted team"),
    );
  }
  if (!quorum.allowSelfApproval) {
    const starter = await starterOf(tx, caller.tenant.id, wait.runId);
    if (starter && (starter.voter === voter.voter || starter.label === actorLabel(caller.actor)))
      throw forbidden(SELF_REFUSAL);
  }
  return { asked, voter, rules };
}

/**
 * Casts the caller's vote on a pending approval — one per person, whichever way it arrives (the
 * inbox, the email's link, the API, MCP) — and decides the approval when the vote meets its
 * quorum or rejects it; a step with `approverRole` alone is decided by its first vote, as before.
 * 404 for another shop's (or no) approval, 403 when the caller is not asked (or started the run
 * and may not vote), 409 for a second vote or when already decided, timed out or cancelled —
 * nothing changes then. The vote, the decision and the moved job commit together.
 */
export async function decideApproval(caller: Caller, waitId: string, body: unknown): Promise<ApprovalView> {
  const input = parseOrThrow(decisionInput, body, "The decision is invalid");
  if (!isUuid(waitId)) throw notFound("That approval");
  const decided = await getDb().transaction(async (tx) => {
    const [wait] = await tx
      .select()
      .from(automationRunWaits)
      .where(
        and(
          eq(automationRunWaits.tenantId, caller.tenant.id),
          eq(automationRunWaits.id, waitId),
          eq(automationRunWaits.kind, "approval"),
        ),
      )
      .for("update");
    if (!wait) throw notFound("That approval");
    const { asked, voter, rules } = await mayVote(tx, caller, wait);
    const [earlier] = await tx
      .select()
      .from(approvalVotes)
      .where(and(eq(approvalVotes.waitId, wait.id), eq(approvalVotes.voter, voter.voter)));
    if (earlier)
      throw new AppError(
        409,
        "conflict",
        `You already ${earlier.decision === "approved" ? "approved" : "rejected"} this at ${earlier.createdAt.toISOString()}; each person votes once.`,
      );
    const refused = refusal(wait);
    if (refused) throw refused;
    const note = input.note ?? null;
    await tx.insert(approvalVotes).values({
      tenantId: caller.tenant.id,
      waitId: wait.id,
      voter: voter.voter,
      voterLabel: voter.label,
      decision: input.decision,
      note,
      rules,
    });
    await recordAudit(tx, caller, {
      action: "approval.decided",
      subjectType: "approval",
      subjectId: wait.id,
      detail: {
        decision: input.decision,
        note,
        runId: wait.runId,
        title: asked.title ?? null,
        voter: voter.label,
      },
    });
    await settle(tx, wait, asked, { label: voter.label, note });
    const [now] = await tx.select().from(automationRunWaits).where(eq(automationRunWaits.id, wait.id));
    return now!;
  });
  const [view] = await approvalViews(caller.tenant.id, [decided]);
  return view!;
}

export const approvalsQuery = z.object({
  status: z.enum(["pending", "all"]).default("pending"),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

async function approvalViews(tenantId: string, waits: WaitRow[]): Promise<ApprovalView[]> {
  const stepIds = waits.flatMap((w) => (w.stepId ? [w.stepId] : []));
  const steps = stepIds.length
    ? await getDb()
        .select({ id: automationRunSteps.id, output: automationRunSteps.output })
        .from(automationRunSteps)
        .where(inArray(automationRunSteps.id, stepIds))
    : [];
  const askedBy = new Map(steps.map((s) => [s.id, s.output ?? {}]));
  const keys = waits.flatMap((w) =>
    isDomain(w.event.domain) && w.event.entityId ? [`${w.event.domain}|${w.event.entityId}`] : [],
  );
  const records = keys.length
    ? await getDb()
        .select({ domain: entities.domain, id: entities.id, data: entities.data })
        .from(entities)
        .where(
          and(eq(entities.tenantId, tenantId), sql`(${entities.domain} || '|' || ${entities.id}) in ${keys}`),
        )
    : [];
  const byKey = new Map(records.map((r) => [`${r.domain}|${r.id}`, r]));
  const automationNamesById = await automationNames(
    tenantId,
    waits.map((w) => w.automationId),
  );
  const { votesBy, teamNames: names } = await votesAndTeams(
    getDb(),
    tenantId,
    waits.map((w) => ({ id: w.id, asked: (w.stepId && askedBy.get(w.stepId)) || {} })),
  );
  return waits.map((w) => {
    const asked = (w.stepId && askedBy.get(w.stepId)) || {};
    const domain = w.event.domain;
    const record = byKey.get(`${domain}|${w.event.entityId}`);
    return {
      waitId: w.id,
      runId: w.runId,
      automationId: w.automationId,
      automationName: automationNamesById.get(w.automationId) ?? null,
      nodeId: w.nodeId,
      title: String(asked.title ?? "A decision"),
      ...quorumSummary(asked, votesBy.get(w.id) ?? [], names, statusOf(w) === "pending"),
      status: statusOf(w),
      entity:
        isDomain(domain) && w.event.entityId
          ? {
              domain,
              id: w.event.entityId,
              label: record ? entityLabel(domain, record.id, record.data) : w.event.entityId,
            }
          : null,
      askedAt: w.createdAt.toISOString(),
      timesOutAt:
        (w.decidedAt ? (asked.resumeAt as string | undefined) : undefined) ?? w.resumeAt.toISOString(),
      decidedBy: w.decidedBy,
      decidedAt: w.decidedAt?.toISOString() ?? null,
      note: w.note,
      reason: typeof asked.reason === "string" ? asked.reason : w.reason,
      remindedAt: w.remindedAt?.toISOString() ?? null,
      escalatedAt: w.escalatedAt?.toISOString() ?? null,
    };
  });
}

/** Approvals of the shop: pending ones soonest to time out first, or all, newest first. */
export async function listApprovals(tenantId: string, query: unknown = {}): Promise<ApprovalPage> {
  const q = parseOrThrow(approvalsQuery, query, "The approvals query is invalid");
  const w = automationRunWaits;
  const offset = q.cursor ? Number.parseInt(q.cursor, 10) || 0 : 0;
  const pending = q.status === "pending";
  const rows = await getDb()
    .select()
    .from(w)
    .where(
      and(
        eq(w.tenantId, tenantId),
        eq(w.kind, "approval"),
        pending ? sql`${w.status} = 'pending' and ${w.decision} is null` : undefined,
      ),
    )
    .orderBy(...(pending ? [asc(w.resumeAt), asc(w.id)] : [desc(w.createdAt), desc(w.id)]))
    .limit(q.limit + 1)
    .offset(offset);
  const page = rows.slice(0, q.limit);
  return {
    items: await approvalViews(tenantId, page),
    nextCursor: rows.length > q.limit ? String(offset + q.limit) : null,
  };
}

/** How many approvals wait for a decision (the sidebar's count). */
export async function countPendingApprovals(tenantId: string): Promise<number> {
  const [row] = await getDb()
    .select({ n: sql<number>`count(*)::int` })
    .from(automationRunWaits)
    .where(
      and(
        eq(automationRunWaits.tenantId, tenantId),
        eq(automationRunWaits.kind, "approval"),
        sql`${automationRunWaits.status} = 'pending' and ${automationRunWaits.decision} is null`,
      ),
    );
  return row?.n ?? 0;
}
