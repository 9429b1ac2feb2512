import "server-only";
import crypto from "node:crypto";
import { hashPassword } from "better-auth/crypto";
import { and, asc, eq, gt, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { recordAudit } from "@/lib/audit";
import { escapeHtml } from "@/lib/automations/tokens/escape";
import { getDb, type Tx } from "@/lib/db/client";
import { accounts, invitations, memberships, tenants, users } from "@/lib/db/schema";
import { AppError, notFound, parseOrThrow } from "@/lib/errors";
import type { Caller } from "@/lib/identity/caller";
import { ROLES, type Role } from "@/lib/identity/roles";
import { spendOrRefuse } from "@/lib/rate-limit/api";
import { appUrl } from "./auth";
import { writeAuthEmail } from "./auth-emails";

/*
 * Terminology
 * - invitation: a shop's offer of a role to an email address; open until accepted, revoked or
 *   expired (INVITATION_DAYS after it was last sent).
 * - token: 256 bits of random (base64url) in the link `/invite/<token>`; shown to the admin once and
 *   emailed to the person, stored only as its SHA-256 (`token_hash`). Re-sending makes a new one.
 * - accept: a new email sets its own name and password; an existing login accepts while signed in
 *   as that email. Either way the membership is created and the invitation closed in one
 *   transaction, so a token works once.
 */

/** How long an invitation link works after it was sent. */
export const INVITATION_DAYS = 7;

export const inviteInput = z.object({
  email: z.email("enter a valid email address").transform((e) => e.toLowerCase()),
  role: z.enum(ROLES, "choose admin, editor or viewer"),
});

/** What an admin sees of an open invitation (never its token). */
export interface PendingInvitation {
  id: string;
  email: string;
  role: Role;
  createdAt: Date;
  expiresAt: Date;
  expired: boolean;
}

/** A new invitation or a re-sent one: the link is shown to the admin once, then only emailed. */
export interface SentInvitation {
  invitation: PendingInvitation;
  link: string;
}

/** The SHA-256 of a token, as stored (base64url). */
export function hashInvitationToken(token: string): string {
  return crypto.createHash("sha256").update(token).digest("base64url");
}

/** The page a token opens. */
export function invitationLink(token: string): string {
  return `${appUrl()}/invite/${token}`;
}

/** A token's shape: 32 bytes in base64url. Anything else is not looked up. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

function newToken(): { token: string; tokenHash: string } {
  const token = crypto.randomBytes(32).toString("base64url");
  return { token, tokenHash: hashInvitationToken(token) };
}

const expiry = (from = new Date()) => new Date(from.getTime() + INVITATION_DAYS * 24 * 60 * 60 * 1000);

function pending(row: typeof invitations.$inferSelect, now = new Date()): PendingInvitation {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    expired: row.expiresAt <= now,
  };
}

const inviterId = (by: Caller) => (by.actor.kind === "user" ? by.actor.userId : null);

async function sendInvitationEmail(tx: Tx, shopName: string, email: string, role: Role, link: string) {
  const article = role === "admin" ? "an" : "a";
  await writeAuthEmail(tx, {
    kind: "invitation",
    to: email,
    subject: `You are invited to ${shopName} on Tillflow`,
    html: [
      `<p>You are invited to join <strong>${escapeHtml(shopName)}</strong> on Tillflow as ${article} ${role}.</p>`,
      `<p><a href="${escapeHtml(link)}">Accept the invitation</a></p>`,
      `<p>The link works once and for ${INVITATION_DAYS} days. If you did not expect it, ignore this email.</p>`,
    ].join("\n"),
  });
}

/** Invitations (sent or re-sent) a shop may send an hour: each is an email to someone outside it. */
export const INVITATIONS_PER_SHOP_PER_HOUR = 30;

/**
 * Counts one invitation email against the shop's hour, or throws a 429 saying when it renews: a
 * shop's admin cannot mail strangers in bulk from Tillflow's address, nor try many emails' links.
 */
async function spendInvitation(tenantId: string): Promise<void> {
  const max = INVITATIONS_PER_SHOP_PER_HOUR;
  await spendOrRefuse(
    `invite:${tenantId}`,
    { max, windowSeconds: 3600 },
    (minutes) =>
      `This shop has sent ${max} invitations this hour, the most an hour allows; send more in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
  );
}

/**
 * Invites an email to the caller's shop (admins; the action checks the role). A member already is
 * refused (409); an open invitation to the same email is sent again with the new role, a new token
 * and a new expiry (the old link stops working). Nothing about the person's login is touched.
 */
export async function inviteMember(by: Caller, input: z.input<typeof inviteInput>): Promise<SentInvitation> {
  const values = parseOrThrow(inviteInput, input, "The invitation is invalid");
  const tenantId = by.tenant.id;
  await spendInvitation(tenantId);
  const { token, tokenHash } = newToken();
  const sent = await getDb().transaction(async (tx) => {
    const [member] = await tx
      .select({ userId: memberships.userId })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.tenantId, tenantId), eq(users.email, values.email)));
    if (member) throw new AppError(409, "conflict", `${values.email} is already a member of this shop.`);
    const now = new Date();
    const fields = {
      role: values.role,
      tokenHash,
      invitedBy: inviterId(by),
      createdAt: now,
      expiresAt: expiry(now),
    };
    const [row] = await tx
      .insert(invitations)
      .values({ tenantId, email: values.email, ...fields })
      .onConflictDoUpdate({
        target: [invitations.tenantId, invitations.email],
        targetWhere: sql`${invitations.acceptedAt} is null and ${invitations.revokedAt} is null`,
        set: fields,
      })
      .returning();
    await sendInvitationEmail(tx, by.tenant.name, values.email, values.role, invitationLink(token));
    await recordAudit(tx, by, {
      action: "user.invited",
      subjectType: "invitation",
      subjectId: row!.id,
      detail: { email: values.email, role: values.role },
    });
    return row!;
  });
  return { invitation: pending(sent), link: invitationLink(token) };
}

/** The shop's open invitations (expired ones included, marked, so they can be re-sent), oldest first. */
export async function listInvitations(tenantId: string): Promise<PendingInvitation[]> {
  const rows = await getDb()
    .select()
    .from(invitations)
    .where(
      and(eq(invitations.tenantId, tenantId), isNull(invitations.acceptedAt), isNull(invitations.revokedAt)),
    )
    .orderBy(asc(invitations.createdAt));
  const now = new Date();
  return rows.map((row) => pending(row, now));
}

/** Locks one open invitation of the caller's shop, or 404 (another shop's, accepted or revoked). */
async function openInvitation(tx: Tx, tenantId: string, id: string) {
  if (!z.uuid().safeParse(id).success) throw notFound("That invitation");
  const [row] = await tx
    .select()
    .from(invitations)
    .where(
      and(
        eq(invitations.id, id),
        eq(invitations.tenantId, tenantId),
        isNull(invitations.acceptedAt),
        isNull(invitations.revokedAt),
      ),
    )
    .for("update");
  if (!row) throw notFound("That invitation");
  return row;
}

/** Withdraws an open invitation: its link stops working at once. */
export async function revokeInvitation(by: Caller, id: string): Promise<void> {
  await getDb().transaction(async (tx) => {
    const row = await openInvitation(tx, by.tenant.id, id);
    await tx.update(invitations).set({ revokedAt: new Date() }).where(eq(invitations.id, row.id));
    await recordAudit(tx, by, {
      action: "user.invitation_revoked",
      subjectType: "invitation",
      subjectId: row.id,
      detail: { email: row.email, role: row.role },
    });
  });
}

/** Sends an open invitation again: a new token (the old link stops working) and 7 more days. */
export async function resendInvitation(by: Caller, id: string): Promise<SentInvitation> {
  await spendInvitation(by.tenant.id);
  const { token, tokenHash } = newToken();
  const row = await getDb().transaction(async (tx) => {
    const open = await openInvitation(tx, by.tenant.id, id);
    const now = new Date();
    const [row] = await tx
      .update(invitations)
      .set({ tokenHash, createdAt: now, expiresAt: expiry(now), invitedBy: inviterId(by) ?? open.invitedBy })
      .where(eq(invitations.id, open.id))
      .returning();
    await sendInvitationEmail(tx, by.tenant.name, row!.email, row!.role, invitationLink(token));
    await recordAudit(tx, by, {
      action: "user.invitation_resent",
      subjectType: "invitation",
      subjectId: row!.id,
      detail: { email: row!.email, role: row!.role },
    });
    return row!;
  });
  return { invitation: pending(row), link: invitationLink(token) };
}

/** What `/invite/<token>` shows: the invitation, or why it cannot be used, in a sentence. */
export type InvitationView =
  | { ok: true; shopName: string; email: string; role: Role; expiresAt: Date; hasLogin: boolean }
  | { ok: false; problem: string };

const PROBLEMS = {
  unknown:
    "This invitation link is not valid. Check that you copied all of it, or ask the shop's admin to send the invitation again.",
  accepted:
    "This invitation has already been used. If it was you, sign in; if not, ask the shop's admin for a new invitation.",
  revoked:
    "This invitation was withdrawn by the shop's admin. Ask them for a new one if you still need access.",
  expired: `This invitation has expired (an invitation link works for ${INVITATION_DAYS} days). Ask the shop's admin to send it again.`,
};

async function findByToken(tx: Tx | ReturnType<typeof getDb>, token: string) {
  if (!TOKEN.test(token)) return null;
  const [row] = await tx
    .select({ invitation: invitations, shopName: tenants.name })
    .from(invitations)
    .innerJoin(tenants, eq(tenants.id, invitations.tenantId))
    .where(eq(invitations.tokenHash, hashInvitationToken(token)));
  return row ?? null;
}

function problemOf(row: typeof invitations.$inferSelect | undefined, now = new Date()): string | null {
  if (!row) return PROBLEMS.unknown;
  if (row.acceptedAt) return PROBLEMS.accepted;
  if (row.revokedAt) return PROBLEMS.revoked;
  if (row.expiresAt <= now) return PROBLEMS.expired;
  return null;
}

/** Looks a token up for the invitation page. Never throws for a bad token: it says what is wrong. */
export async function viewInvitation(token: string): Promise<InvitationView> {
  const found = await findByToken(getDb(), token);
  const problem = problemOf(found?.invitation);
  if (problem || !found) return { ok: false, problem: problem ?? PROBLEMS.unknown };
  const [login] = await getDb()
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, found.invitation.email));
  return {
    ok: true,
    shopName: found.shopName,
    email: found.invitation.email,
    role: found.invitation.role,
    expiresAt: found.invitation.expiresAt,
    hasLogin: Boolean(login),
  };
}

/**
 * Closes an open, unexpired invitation for this token (the row is locked, so of two accepts at once
 * one wins), or throws a 409 with the sentence that says why it cannot be used.
 */
async function claim(tx: Tx, token: string) {
  const found = TOKEN.test(token)
    ? await tx
        .select()
        .from(invitations)
        .where(eq(invitations.tokenHash, hashInvitationToken(token)))
        .for("update")
    : [];
  const row = found[0];
  const problem = problemOf(row);
  if (problem || !row) throw new AppError(409, "conflict", problem ?? PROBLEMS.unknown);
  const [closed] = await tx
    .update(invitations)
    .set({ acceptedAt: new Date() })
    .where(
      and(eq(invitations.id, row.id), isNull(invitations.acceptedAt), gt(invitations.expiresAt, new Date())),
    )
    .returning();
  if (!closed) throw new AppError(409, "conflict", PROBLEMS.accepted);
  return closed;
}

/** Gives the membership and writes the audit entry in the invited shop, as the person who accepted. */
async function join(
  tx: Tx,
  invitation: typeof invitations.$inferSelect,
  user: { id: string; email: string; name: string },
) {
  await tx
    .insert(memberships)
    .values({ tenantId: invitation.tenantId, userId: user.id, role: invitation.role })
    .onConflictDoNothing();
  const [tenant] = await tx
    .select({ id: tenants.id, slug: tenants.slug, name: tenants.name, timezone: tenants.timezone })
    .from(tenants)
    .where(eq(tenants.id, invitation.tenantId));
  const caller: Caller = {
    tenant: tenant!,
    role: invitation.role,
    actor: { kind: "user", userId: user.id, email: user.email, name: user.name },
  };
  await recordAudit(tx, caller, {
    action: "user.joined",
    subjectType: "user",
    subjectId: user.id,
    detail: { email: user.email, role: invitation.role, invitationId: invitation.id },
  });
}

export const newLoginInput = z.object({
  name: z.string().trim().min(1, "enter your name").max(100),
  password: z.string().min(8, "use at least 8 characters").max(128),
});

/**
 * A new person accepts: creates their login with the name and password they chose, and the
 * membership. An email that has a login by now is refused: its owner must sign in and accept.
 */
export async function acceptAsNewLogin(
  token: string,
  input: z.input<typeof newLoginInput>,
): Promise<{ userId: string; email: string; tenantId: string }> {
  const values = parseOrThrow(newLoginInput, input, "The details are invalid");
  const passwordHash = await hashPassword(values.password);
  return getDb().transaction(async (tx) => {
    const invitation = await claim(tx, token);
    const id = crypto.randomUUID();
    const [user] = await tx
      .insert(users)
      // Not verified: the link is also shown to the admin who sent it, so opening it proves
      // nothing about the mailbox (issue 47: whoever typed an email must not vouch for it).
      .values({ id, email: invitation.email, name: values.name, emailVerified: false })
      .onConflictDoNothing()
      .returning();
    if (!user)
      throw new AppError(
        409,
        "conflict",
        `${invitation.email} already has a Tillflow login. Sign in as ${invitation.email}, then open this link again to accept.`,
      );
    await tx.insert(accounts).values({
      id: crypto.randomUUID(),
      accountId: id,
      providerId: "credential",
      userId: id,
      password: passwordHash,
    });
    await join(tx, invitation, user);
    return { userId: id, email: user.email, tenantId: invitation.tenantId };
  });
}

/**
 * Someone signed in accepts: only as the email invited (any other login is refused with a
 * sentence saying so). Their password and login are untouched; they just get the membership.
 */
export async function acceptAsSignedIn(
  token: string,
  user: { id: string; email: string; name: string },
): Promise<{ tenantId: string }> {
  return getDb().transaction(async (tx) => {
    const invitation = await claim(tx, token);
    if (invitation.email !== user.email.toLowerCase())
      throw new AppError(
        403,
        "forbidden",
        `This invitation is for ${invitation.email}, and you are signed in as ${user.email}. Sign out, then sign in as ${invitation.email} to accept it.`,
      );
    await join(tx, invitation, user);
    return { tenantId: invitation.tenantId };
  });
}
