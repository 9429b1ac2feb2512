import { and, asc, eq, inArray, or, sql } from "drizzle-orm";
import { z } from "zod";
import { recordAudit } from "@/lib/audit";
import { getDb, type DbOrTx } from "@/lib/db/client";
import { auditEvents, memberships, teamMembers, teams, users } from "@/lib/db/schema";
import { isUniqueViolation } from "@/lib/db/unique-violation";
import { AppError, isUuid, notFound, parseOrThrow } from "@/lib/errors";
import { assertRole, type Caller } from "@/lib/identity/caller";
import { recheckQuorums } from "@/lib/automations/engine/votes";

/**
 * Teams of a shop's staff (issue 53): a name and members among the shop's members, which an
 * Approval step's quorum may ask (`{ team, required }`). Anyone of the shop reads them; admins
 * (and the operator's CLI, passing the shop's id) change them, and a caller's change is audited.
 * Taking members out, or deleting a team, re-checks the undecided quorum approvals of the shop in
 * the same transaction: one that can no longer be approved follows 'Rejected' at once.
 */

export const MAX_TEAM_MEMBERS = 200;

/** Members by user id or email; each must be a member of the shop. */
const memberList = z
  .array(z.string().trim().min(1, "cannot be empty").max(320), {
    error: "must be a list of user ids or emails",
  })
  .max(MAX_TEAM_MEMBERS, `can hold at most ${MAX_TEAM_MEMBERS} people`);

const teamName = z.string().trim().min(1, "cannot be empty").max(80, "is longer than 80 characters");

export const createTeamInput = z.strictObject({ name: teamName, members: memberList.default([]) });
/** A PUT: the name and the members it gives replace the team's; a field left out stays. */
export const updateTeamInput = z.strictObject({ name: teamName.optional(), members: memberList.optional() });

export interface TeamMember {
  userId: string;
  email: string;
  name: string;
}

export interface Team {
  id: string;
  name: string;
  members: TeamMember[];
  createdAt: string;
}

/** Who changes teams: an admin (audited), or the operator's CLI with the shop's id. */
export type TeamChanger = Caller | string;

const tenantOf = (by: TeamChanger) => (typeof by === "string" ? by : by.tenant.id);

/** The operator's command line, as the audit log names it. */
export const OPERATOR_ACTOR = "Operator (CLI)";

async function audit(
  tx: DbOrTx,
  by: TeamChanger,
  event: { action: string; subjectId: string; detail: Record<string, unknown> },
): Promise<void> {
  if (typeof by !== "string") {
    await recordAudit(tx, by, { ...event, subjectType: "team" });
    return;
  }
  await tx.insert(auditEvents).values({ tenantId: by, actor: OPERATOR_ACTOR, subjectType: "team", ...event });
}

function assertAdmin(by: TeamChanger): void {
  if (typeof by !== "string") assertRole(by, "admin");
}

const taken = (name: string) =>
  new AppError(409, "conflict", `A team named '${name}' already exists in this shop.`);

/** The shop's members named by id or email, in that order; a 422 names the first that is not one. */
async function resolveMembers(tx: DbOrTx, tenantId: string, wanted: string[]): Promise<TeamMember[]> {
  if (wanted.length === 0) return [];
  const lowered = wanted.map((w) => w.toLowerCase());
  const rows = await tx
    .select({ userId: users.id, email: users.email, name: users.name })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(
      and(eq(memberships.tenantId, tenantId), or(inArray(users.id, wanted), inArray(users.email, lowered))),
    );
  const found = new Map<string, TeamMember>();
  for (const row of rows) {
    found.set(row.userId, row);
    found.set(row.email.toLowerCase(), row);
  }
  const members = new Map<string, TeamMember>();
  for (const [i, w] of wanted.entries()) {
    const member = found.get(w) ?? found.get(lowered[i]!);
    if (!member)
      throw new AppError(
        422,
        "invalid",
        `${w} is not a member of this shop: invite them first (Settings → Users).`,
      );
    members.set(member.userId, member);
  }
  return [...members.values()];
}

async function membersOf(
  tx: DbOrTx,
  tenantId: string,
  teamIds: string[],
): Promise<Map<string, TeamMember[]>> {
  if (teamIds.length === 0) return new Map();
  const rows = await tx
    .select({ teamId: teamMembers.teamId, userId: users.id, email: users.email, name: users.name })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .where(and(eq(teamMembers.tenantId, tenantId), inArray(teamMembers.teamId, teamIds)))
    .orderBy(asc(users.email));
  const byTeam = new Map<string, TeamMember[]>();
  for (const { teamId, ...member } of rows) byTeam.set(teamId, [...(byTeam.get(teamId) ?? []), member]);
  return byTeam;
}

/** Every team of the shop with its members, by name. */
export async function listTeams(tenantId: string, db: DbOrTx = getDb()): Promise<Team[]> {
  const rows = await db
    .select()
    .from(teams)
    .where(eq(teams.tenantId, tenantId))
    .orderBy(asc(sql`lower(${teams.name})`));
  const members = await membersOf(
    db,
    tenantId,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    members: members.get(r.id) ?? [],
    createdAt: r.createdAt.toISOString(),
  }));
}

async function loadTeam(tx: DbOrTx, tenantId: string, id: string) {
  if (!isUuid(id)) throw notFound("That team");
  const [row] = await tx
    .select()
    .from(teams)
    .where(and(eq(teams.tenantId, tenantId), eq(teams.id, id)))
    .for("update");
  if (!row) throw notFound("That team");
  return row;
}

async function teamOf(tx: DbOrTx, tenantId: string, id: string): Promise<Team> {
  const team = (await listTeams(tenantId, tx)).find((t) => t.id === id);
  if (!team) throw notFound("That team");
  return team;
}

export async function createTeam(by: TeamChanger, body: unknown): Promise<Team> {
  assertAdmin(by);
  const input = parseOrThrow(createTeamInput, body, "The team is invalid");
  const tenantId = tenantOf(by);
  try {
    return await getDb().transaction(async (tx) => {
      const members = await resolveMembers(tx, tenantId, input.members);
      const [row] = await tx.insert(teams).values({ tenantId, name: input.name }).returning();
      if (members.length)
        await tx
          .insert(teamMembers)
          .values(members.map((m) => ({ teamId: row!.id, tenantId, userId: m.userId })));
      await audit(tx, by, {
        action: "team.created",
        subjectId: row!.id,
        detail: { name: input.name, members: members.map((m) => m.email) },
      });
      return teamOf(tx, tenantId, row!.id);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw taken(input.name);
    throw error;
  }
}

/**
 * Renames a team and/or replaces its members. Taking someone out takes away their unused vote on
 * the shop's undecided approvals at once: they are re-checked here, and one that can no longer be
 * approved follows 'Rejected'.
 */
export async function updateTeam(by: TeamChanger, id: string, body: unknown): Promise<Team> {
  assertAdmin(by);
  const input = parseOrThrow(updateTeamInput, body, "The team is invalid");
  const tenantId = tenantOf(by);
  try {
    return await getDb().transaction(async (tx) => {
      const row = await loadTeam(tx, tenantId, id);
      const before = (await membersOf(tx, tenantId, [row.id])).get(row.id) ?? [];
      if (input.name !== undefined && input.name !== row.name)
        await tx.update(teams).set({ name: input.name }).where(eq(teams.id, row.id));
      let added: TeamMember[] = [];
      let removed: TeamMember[] = [];
      if (input.members !== undefined) {
        const after = await resolveMembers(tx, tenantId, input.members);
        const keep = new Set(after.map((m) => m.userId));
        const had = new Set(before.map((m) => m.userId));
        added = after.filter((m) => !had.has(m.userId));
        removed = before.filter((m) => !keep.has(m.userId));
        if (removed.length)
          await tx.delete(teamMembers).where(
            and(
              eq(teamMembers.teamId, row.id),
              inArray(
                teamMembers.userId,
                removed.map((m) => m.userId),
              ),
            ),
          );
        if (added.length)
          await tx
            .insert(teamMembers)
            .values(added.map((m) => ({ teamId: row.id, tenantId, userId: m.userId })));
      }
      await audit(tx, by, {
        action: "team.updated",
        subjectId: row.id,
        detail: {
          name: input.name ?? row.name,
          ...(input.name !== undefined && input.name !== row.name ? { renamedFrom: row.name } : {}),
          added: added.map((m) => m.email),
          removed: removed.map((m) => m.email),
        },
      });
      if (removed.length) await recheckQuorums(tx, tenantId);
      return teamOf(tx, tenantId, row.id);
    });
  } catch (error) {
    if (isUniqueViolation(error) && input.name) throw taken(input.name);
    throw error;
  }
}

/** Deletes a team; undecided approvals that asked it are re-checked (and rejected: nobody is left in it). */
export async function deleteTeam(by: TeamChanger, id: string): Promise<{ id: string; deleted: true }> {
  assertAdmin(by);
  const tenantId = tenantOf(by);
  await getDb().transaction(async (tx) => {
    const row = await loadTeam(tx, tenantId, id);
    const before = (await membersOf(tx, tenantId, [row.id])).get(row.id) ?? [];
    await tx.delete(teams).where(eq(teams.id, row.id));
    await audit(tx, by, {
      action: "team.deleted",
      subjectId: row.id,
      detail: { name: row.name, members: before.map((m) => m.email) },
    });
    await recheckQuorums(tx, tenantId);
  });
  return { id, deleted: true };
}
