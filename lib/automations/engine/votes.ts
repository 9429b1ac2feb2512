import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import { TILLFLOW_ACTOR } from "@/lib/audit";
import { getDb, type DbOrTx } from "@/lib/db/client";
import {
  apiKeys,
  approvalVotes,
  automationRuns,
  automationRunSteps,
  automationRunWaits,
  auditEvents,
  memberships,
  teamMembers,
  teams,
  users,
} from "@/lib/db/schema";
import { actorLabel, type Caller } from "@/lib/identity/caller";
import { hasRole, type Role } from "@/lib/identity/roles";
import { enqueueJobs } from "@/lib/jobs";
import type { WaitRow } from "@/lib/automations/store/waits";
import type { ServerFacts } from "@/lib/automations/review/validate";
import { runStarter } from "./run-starter";
import {
  IMPOSSIBLE_REASON,
  quorumOf,
  quorumState,
  stillNeeded,
  type Eligible,
  type Quorum,
  type QuorumState,
  type StoredVote,
  type Vote,
} from "@/lib/automations/nodes/timing/quorum";

/**
 * Votes on approvals (issue 53), against the database: who a caller votes as, who else still may,
 * and the one place an approval is decided — by a vote that meets its quorum or rejects it, or by
 * a re-check that finds it can no longer be approved (a team member removed, the reminder tick).
 * Every function runs in the caller's transaction, after the wait row was locked `for update`, so
 * votes on one approval are counted one at a time and the decision commits with the vote.
 */

/** Who casts a vote: one person (`user:<id>`), or an API key no person made (`key:<id>`). */
export interface Voter {
  voter: string;
  userId: string | null;
  /** As the audit log and the run page name them: an email, or "API key tf_ab…". */
  label: string;
  role: Role;
}

/** The caller as a voter: a person, or the person who made their API key, or the key itself. */
export async function voterOf(tx: DbOrTx, caller: Caller): Promise<Voter> {
  if (caller.actor.kind === "user")
    return {
      voter: `user:${caller.actor.userId}`,
      userId: caller.actor.userId,
      label: caller.actor.email,
      role: caller.role,
    };
  const [made] = await tx
    .select({ userId: apiKeys.createdBy, email: users.email })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.createdBy))
    .innerJoin(
      memberships,
      and(eq(memberships.userId, apiKeys.createdBy), eq(memberships.tenantId, caller.tenant.id)),
    )
    .where(and(eq(apiKeys.tenantId, caller.tenant.id), eq(apiKeys.id, caller.actor.apiKeyId)));
  if (made?.userId)
    return { voter: `user:${made.userId}`, userId: made.userId, label: made.email, role: caller.role };
  return {
    voter: `key:${caller.actor.apiKeyId}`,
    userId: null,
    label: actorLabel(caller.actor),
    role: caller.role,
  };
}

/** The voter whose action started the run (engine/run-starter.ts), or null when no person did. */
export async function starterOf(
  tx: DbOrTx,
  tenantId: string,
  runId: string,
): Promise<{ voter: string | null; label: string } | null> {
  const [run] = await tx
    .select({ id: automationRuns.id, createdAt: automationRuns.createdAt, event: automationRuns.event })
    .from(automationRuns)
    .where(and(eq(automationRuns.tenantId, tenantId), eq(automationRuns.id, runId)));
  if (!run) return null;
  const fireId = run.event.payload.fireId;
  const label = await runStarter(tx, tenantId, {
    id: run.id,
    createdAt: run.createdAt,
    fireId: typeof fireId === "string" ? fireId : null,
  });
  if (label === null) return null;
  const key = /^API key (tf_.+)…$/.exec(label);
  if (key) {
    const [made] = await tx
      .select({ id: apiKeys.id, createdBy: apiKeys.createdBy })
      .from(apiKeys)
      .where(and(eq(apiKeys.tenantId, tenantId), eq(apiKeys.prefix, key[1]!)));
    if (!made) return { voter: null, label };
    return { voter: made.createdBy ? `user:${made.createdBy}` : `key:${made.id}`, label };
  }
  const [person] = await tx.select({ id: users.id }).from(users).where(eq(users.email, label));
  return { voter: person ? `user:${person.id}` : null, label };
}

/** The teams a person is in, of the shop. */
async function teamsOf(tx: DbOrTx, tenantId: string, userId: string | null): Promise<Set<string>> {
  if (!userId) return new Set();
  const rows = await tx
    .select({ teamId: teamMembers.teamId })
    .from(teamMembers)
    .where(and(eq(teamMembers.tenantId, tenantId), eq(teamMembers.userId, userId)));
  return new Set(rows.map((r) => r.teamId));
}

function rulesFor(quorum: Quorum, role: Role, inTeams: Set<string>): number[] {
  return quorum.rules.flatMap((rule, i) =>
    // A team's viewer is in it but cannot vote: deciding takes the editor role at least.
    ("team" in rule ? inTeams.has(rule.team) && hasRole(role, "editor") : hasRole(role, rule.role))
      ? [i]
      : [],
  );
}

/** The rules a voter can count for now: their role, and the teams they are in. */
export async function rulesOfVoter(
  tx: DbOrTx,
  tenantId: string,
  quorum: Quorum,
  voter: Voter,
): Promise<number[]> {
  return rulesFor(quorum, voter.role, await teamsOf(tx, tenantId, voter.userId));
}

/** The votes cast on an approval, oldest first. */
export async function votesOn(tx: DbOrTx, waitId: string) {
  return tx
    .select()
    .from(approvalVotes)
    .where(eq(approvalVotes.waitId, waitId))
    .orderBy(asc(approvalVotes.createdAt), asc(approvalVotes.id));
}

/**
 * Everyone who has not voted yet and still may: the shop's members by their role and teams, and
 * its API keys no person made (each votes as itself) — without the run's starter when the step
 * forbids self-approval.
 */
export async function candidatesFor(
  tx: DbOrTx,
  tenantId: string,
  quorum: Quorum,
  voted: Set<string>,
  starter: string | null,
): Promise<Eligible[]> {
  const [members, inTeams, keys] = await Promise.all([
    tx
      .select({ userId: memberships.userId, role: memberships.role })
      .from(memberships)
      .where(eq(memberships.tenantId, tenantId)),
    tx
      .select({ userId: teamMembers.userId, teamId: teamMembers.teamId })
      .from(teamMembers)
      .where(eq(teamMembers.tenantId, tenantId)),
    tx
      .select({ id: apiKeys.id, role: apiKeys.role })
      .from(apiKeys)
      .where(and(eq(apiKeys.tenantId, tenantId), isNull(apiKeys.createdBy), isNull(apiKeys.revokedAt))),
  ]);
  const teamsByUser = new Map<string, Set<string>>();
  for (const row of inTeams) {
    const set = teamsByUser.get(row.userId) ?? new Set<string>();
    set.add(row.teamId);
    teamsByUser.set(row.userId, set);
  }
  const people = [
    ...members.map((m) => ({ voter: `user:${m.userId}`, role: m.role, teams: teamsByUser.get(m.userId) })),
    ...keys.map((k) => ({ voter: `key:${k.id}`, role: k.role, teams: undefined })),
  ];
  return people.flatMap((p) => {
    if (voted.has(p.voter) || (!quorum.allowSelfApproval && p.voter === starter)) return [];
    const rules = rulesFor(quorum, p.role, p.teams ?? new Set());
    return rules.length ? [{ voter: p.voter, rules }] : [];
  });
}

/** The names of the shop's teams a quorum names, by id (a deleted team reads "a deleted team"). */
export async function teamNames(tx: DbOrTx, tenantId: string, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await tx
    .select({ id: teams.id, name: teams.name })
    .from(teams)
    .where(and(eq(teams.tenantId, tenantId), inArray(teams.id, ids)));
  return new Map(rows.map((r) => [r.id, r.name]));
}

export function teamIdsOf(quorum: Quorum): string[] {
  return quorum.rules.flatMap((rule) => ("team" in rule ? [rule.team] : []));
}

export interface Tally {
  quorum: Quorum;
  state: QuorumState;
  /** "1 of 2 admins, and 1 from Finance still needed"; null once met. */
  needed: string | null;
  /** The voters still able to vote (reminders go to the people among them). */
  candidates: Eligible[];
}

/** Where an approval's votes stand now. */
export async function tally(
  tx: DbOrTx,
  wait: Pick<WaitRow, "id" | "tenantId" | "runId">,
  asked: Record<string, unknown>,
): Promise<Tally> {
  const quorum = quorumOf(asked);
  const votes = await votesOn(tx, wait.id);
  const starter = quorum.allowSelfApproval ? null : await starterOf(tx, wait.tenantId, wait.runId);
  const candidates = await candidatesFor(
    tx,
    wait.tenantId,
    quorum,
    new Set(votes.map((v) => v.voter)),
    starter?.voter ?? null,
  );
  const counted: Vote[] = votes.map((v) => ({ voter: v.voter, decision: v.decision, rules: v.rules }));
  const state = quorumState(quorum, counted, candidates);
  const names = await teamNames(tx, wait.tenantId, teamIdsOf(quorum));
  const needed = stillNeeded(quorum.rules, state.missing, (id) => names.get(id) ?? "a deleted team");
  return { quorum, state, needed, candidates };
}

/**
 * Decides the approval when its tally says so: the wait and its step take the decision, the audit
 * log says it, and the wait's job (same key: the dedupe) is moved to now so the run resumes on the
 * decided out. `by` is the vote that decided it, or null for Tillflow's "can no longer be approved".
 * Returns the decision taken, or null while it stays pending.
 */
export async function settle(
  tx: DbOrTx,
  wait: WaitRow,
  asked: Record<string, unknown>,
  by: { label: string; note: string | null } | null,
): Promise<"approved" | "rejected" | null> {
  const { state, needed } = await tally(tx, wait, asked);
  if (state.outcome === "pending") return null;
  const decision = state.outcome === "approved" ? "approved" : "rejected";
  const impossible = state.outcome === "impossible";
  const now = new Date();
  const decidedBy = impossible || !by ? TILLFLOW_ACTOR : by.label;
  const note = impossible
    ? `This approval ${IMPOSSIBLE_REASON}: ${needed ?? "the rules"}, and too few people who may vote remain.`
    : (by?.note ?? null);
  await tx
    .update(automationRunWaits)
    .set({ decision, decidedBy, decidedAt: now, note, resumeAt: now })
    .where(eq(automationRunWaits.id, wait.id));
  if (wait.stepId)
    await tx
      .update(automationRunSteps)
      .set({
        output: {
          ...asked,
          decision,
          decidedBy,
          decidedAt: now.toISOString(),
          note,
          ...(impossible ? { reason: IMPOSSIBLE_REASON } : {}),
        },
      })
      .where(eq(automationRunSteps.id, wait.stepId));
  if (impossible || !by)
    await tx.insert(auditEvents).values({
      tenantId: wait.tenantId,
      actor: TILLFLOW_ACTOR,
      action: "approval.decided",
      subjectType: "approval",
      subjectId: wait.id,
      detail: { decision, note, reason: IMPOSSIBLE_REASON, runId: wait.runId, title: asked.title ?? null },
    });
  await enqueueJobs(tx, [
    { task: "automation_resume", payload: { waitId: wait.id }, runAt: now, jobKey: wait.id },
  ]);
  return decision;
}

/** At most this many quorum approvals one re-check reads; the next tick takes the rest. */
const RECHECK_BATCH = 200;

/**
 * Re-checks the pending quorum approvals (of one shop, or of every shop for the reminder tick) and
 * rejects those that can no longer be approved. Rows another transaction holds are skipped: it is
 * voting on them and settles them itself. Returns how many were rejected.
 */
export async function recheckQuorums(tx: DbOrTx, tenantId: string | null): Promise<number> {
  const w = automationRunWaits;
  const rows = await tx
    .select({ wait: w, output: automationRunSteps.output })
    .from(w)
    .innerJoin(
      automationRunSteps,
      and(eq(automationRunSteps.id, w.stepId), eq(automationRunSteps.runId, w.runId)),
    )
    .where(
      and(
        sql`${w.status} = 'pending' and ${w.kind} = 'approval'`,
        isNull(w.decision),
        isNull(w.decidedBy),
        tenantId ? eq(w.tenantId, tenantId) : undefined,
        sql`jsonb_typeof(${automationRunSteps.output} -> 'approvers') = 'array'`,
      ),
    )
    .orderBy(asc(w.createdAt))
    .limit(RECHECK_BATCH)
    .for("update", { of: w, skipLocked: true });
  let rejected = 0;
  for (const row of rows) {
    if ((await settle(tx, row.wait, row.output ?? {}, null)) !== null) rejected += 1;
  }
  return rejected;
}

/** The votes on each of some approval waits (oldest first), and the names of the teams their steps ask. */
export async function votesAndTeams(
  db: DbOrTx,
  tenantId: string,
  waits: { id: string; asked: Record<string, unknown> }[],
): Promise<{ votesBy: Map<string, StoredVote[]>; teamNames: Map<string, string> }> {
  const votesBy = new Map<string, StoredVote[]>();
  if (waits.length === 0) return { votesBy, teamNames: new Map() };
  const rows = await db
    .select()
    .from(approvalVotes)
    .where(
      and(
        eq(approvalVotes.tenantId, tenantId),
        inArray(
          approvalVotes.waitId,
          waits.map((w) => w.id),
        ),
      ),
    )
    .orderBy(asc(approvalVotes.createdAt), asc(approvalVotes.id));
  for (const vote of rows) votesBy.set(vote.waitId, [...(votesBy.get(vote.waitId) ?? []), vote]);
  const names = await teamNames(
    db,
    tenantId,
    waits.flatMap((w) => teamIdsOf(quorumOf(w.asked))),
  );
  return { votesBy, teamNames: names };
}

/**
 * What an Approval step's rules are checked against before publishing (`ServerFacts.approvers`):
 * the shop's teams with their sizes, and how many could vote as an editor or an admin — its
 * members, and its API keys no person made (each votes as itself).
 */
export async function approverFacts(
  tenantId: string,
  db: DbOrTx = getDb(),
): Promise<NonNullable<ServerFacts["approvers"]>> {
  const [sizes, roles] = await Promise.all([
    db.execute<{ id: string; name: string; size: number }>(sql`
      select t.id, t.name, count(m.user_id)::int as size
      from teams t left join team_members m on m.team_id = t.id
      where t.tenant_id = ${tenantId} group by t.id, t.name`),
    db.execute<{ role: string; n: number }>(sql`
      select role::text as role, count(*)::int as n from (
        select role from memberships where tenant_id = ${tenantId}
        union all
        select role from api_keys where tenant_id = ${tenantId} and created_by is null and revoked_at is null
      ) staff group by role`),
  ]);
  const count = (role: string) => roles.find((r) => r.role === role)?.n ?? 0;
  return {
    teams: Object.fromEntries(sizes.map((t) => [t.id, { name: t.name, size: t.size }])),
    people: { admin: count("admin"), editor: count("admin") + count("editor") },
  };
}
