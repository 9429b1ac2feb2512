import crypto from "node:crypto";
import { hashPassword } from "better-auth/crypto";
import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import { recordAudit } from "@/lib/audit";
import { getDb } from "@/lib/db/client";
import { accounts, memberships, sessions, users } from "@/lib/db/schema";
import { AppError, notFound, parseOrThrow } from "@/lib/errors";
import type { Caller } from "@/lib/identity/caller";
import { ROLES, type Role } from "@/lib/identity/roles";

/**
 * Who changes a shop's staff: a signed-in admin or an API key (a `Caller`, and the change is
 * recorded in the audit log), or the operator's command line, seed or tests (a tenant id, and it
 * is not: nobody of the shop did it).
 */
export type StaffChanger = Caller | string;

const tenantOf = (by: StaffChanger) => (typeof by === "string" ? by : by.tenant.id);

/**
 * A member with a password, for the operator's path only (`tillflow user create`, the demo seed,
 * tests). Nobody of a shop adds a member this way: they invite (lib/auth/invitations.ts), and the
 * person chooses their own password.
 */
export const memberInput = z.object({
  email: z.email("enter a valid email address").transform((e) => e.toLowerCase()),
  name: z.string().trim().max(100).optional(),
  role: z.enum(ROLES, "choose admin, editor or viewer"),
  password: z.string().min(8, "use at least 8 characters").max(128),
});

export interface Member {
  userId: string;
  email: string;
  name: string;
  role: Role;
  joinedAt: Date;
}

/**
 * The operator adds a staff member to a shop (never a shop's admin: see `memberInput`): creates
 * the user and its password login when the email is new, or just the membership when the person
 * already has a login (their password is then left alone).
 */
export async function addMember(tenantId: string, input: z.input<typeof memberInput>): Promise<Member> {
  const values = parseOrThrow(memberInput, input, "The user is invalid");
  const passwordHash = await hashPassword(values.password);
  return getDb().transaction(async (tx) => {
    let [user] = await tx.select().from(users).where(eq(users.email, values.email));
    if (!user) {
      const id = crypto.randomUUID();
      [user] = await tx
        .insert(users)
        .values({
          id,
          email: values.email,
          name: values.name || values.email.split("@")[0]!,
          emailVerified: true,
        })
        .returning();
      await tx.insert(accounts).values({
        id: crypto.randomUUID(),
        accountId: id,
        providerId: "credential",
        userId: id,
        password: passwordHash,
      });
    }
    const [membership] = await tx
      .insert(memberships)
      .values({ tenantId, userId: user!.id, role: values.role })
      .onConflictDoNothing()
      .returning();
    if (!membership) throw new AppError(409, "conflict", `${values.email} is already a member of this shop.`);
    return {
      userId: user!.id,
      email: user!.email,
      name: user!.name,
      role: membership.role,
      joinedAt: membership.createdAt,
    };
  });
}

export async function listMembers(tenantId: string): Promise<Member[]> {
  return getDb()
    .select({
      userId: users.id,
      email: users.email,
      name: users.name,
      role: memberships.role,
      joinedAt: memberships.createdAt,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.tenantId, tenantId))
    .orderBy(asc(users.email));
}

export async function changeMemberRole(by: StaffChanger, userId: string, role: Role): Promise<void> {
  parseOrThrow(z.enum(ROLES, "choose admin, editor or viewer"), role, "The role is invalid");
  const tenantId = tenantOf(by);
  await getDb().transaction(async (tx) => {
    const [before] = await tx
      .select({ role: memberships.role, email: users.email })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.tenantId, tenantId), eq(memberships.userId, userId)))
      .for("update", { of: memberships });
    if (!before) throw notFound("That user");
    await tx
      .update(memberships)
      .set({ role })
      .where(and(eq(memberships.tenantId, tenantId), eq(memberships.userId, userId)));
    if (typeof by !== "string" && before.role !== role)
      await recordAudit(tx, by, {
        action: "user.role_changed",
        subjectType: "user",
        subjectId: userId,
        detail: { email: before.email, from: before.role, to: role },
      });
  });
}

/**
 * Removes a member and ends every session of that person at once. A session carries no shop (the
 * shop rides in a cookie, lib/auth/resolve-caller.ts, and membership is checked on every request),
 * so this shop's sessions cannot be told from the others: all of them end, and the person signs in
 * again for any other shop they work for.
 */
export async function removeMember(by: StaffChanger, userId: string): Promise<void> {
  const tenantId = tenantOf(by);
  await getDb().transaction(async (tx) => {
    const rows = await tx
      .delete(memberships)
      .where(and(eq(memberships.tenantId, tenantId), eq(memberships.userId, userId)))
      .returning({ userId: memberships.userId, role: memberships.role });
    if (rows.length === 0) throw notFound("That user");
    await tx.delete(sessions).where(eq(sessions.userId, userId));
    const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId));
    if (typeof by !== "string")
      await recordAudit(tx, by, {
        action: "user.removed",
        subjectType: "user",
        subjectId: userId,
        detail: { email: user?.email ?? null, role: rows[0]!.role },
      });
  });
}

/** The shops a user belongs to, oldest membership first. */
export async function membershipsOf(userId: string) {
  return getDb()
    .select({ tenantId: memberships.tenantId, role: memberships.role })
    .from(memberships)
    .where(eq(memberships.userId, userId))
    .orderBy(asc(memberships.createdAt));
}
