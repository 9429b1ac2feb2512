import crypto from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, test, vi } from "vitest";
import {
  acceptInvitationAsNewLogin,
  acceptInvitationSignedIn,
  acceptInvitationWithPassword,
} from "@/lib/actions/auth/accept-invitation";
import { requestPasswordReset } from "@/lib/actions/auth/request-password-reset";
import { resetPassword } from "@/lib/actions/auth/reset-password";
import { inviteUserAction } from "@/lib/actions/users/invite-user";
import { resendInvitationAction } from "@/lib/actions/users/resend-invitation";
import { revokeInvitationAction } from "@/lib/actions/users/revoke-invitation";
import { SEALED_BODY, sealedBodyContext } from "@/lib/auth/auth-emails";
import { getAuth } from "@/lib/auth/auth";
import {
  hashInvitationToken,
  inviteInput,
  inviteMember,
  listInvitations,
  resendInvitation,
  revokeInvitation,
  viewInvitation,
} from "@/lib/auth/invitations";
import { resolveCaller } from "@/lib/auth/resolve-caller";
import { addMember, listMembers, removeMember } from "@/lib/auth/users";
import { sendOutboxEmail } from "@/lib/automations/work/email";
import { listOutbox } from "@/lib/automations/work/outbox";
import { open } from "@/lib/credentials/secret-box";
import { getDb } from "@/lib/db/client";
import { auditEvents, invitations, outboxEmails, sessions, users, verifications } from "@/lib/db/schema";
import { callerOf, createShop, type TestShop } from "@/tests/helpers/shop";
import { startSmtpServer } from "@/tests/helpers/smtp";

// Staff are invited, never given a password (issue 47, item 1). The server actions read the
// request's headers through next/headers: here a request whose headers (a key, a session cookie)
// the test chooses.
const request = vi.hoisted(() => ({ headers: new Headers() }));
vi.mock("next/headers", () => ({ headers: async () => request.headers }));
vi.mock("next/cache", () => ({ refresh: () => {}, revalidatePath: () => {} }));
vi.mock("next/navigation", () => ({
  redirect: (to: string) => {
    throw Object.assign(new Error(`redirect ${to}`), { redirectTo: to });
  },
}));

beforeEach(() => {
  request.headers = new Headers();
});

const NO_ERROR = { error: null };

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.set(key, value);
  return data;
}

/** The redirect a server action ended with (Next's redirect throws), or its returned state. */
async function outcome<T>(run: Promise<T>): Promise<{ redirect: string } | T> {
  try {
    return await run;
  } catch (error) {
    const to = (error as { redirectTo?: string }).redirectTo;
    if (to) return { redirect: to };
    throw error;
  }
}

const tokenOf = (link: string) => link.split("/invite/")[1]!;

async function signIn(email: string, password: string): Promise<{ status: number; cookie: string }> {
  const res = await getAuth().api.signInEmail({ body: { email, password }, asResponse: true });
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  return { status: res.status, cookie };
}

/** Acts as a shop's key (server actions read `Authorization` like the API). */
const asKey = (shop: TestShop, role: "admin" | "editor" | "viewer") => {
  request.headers = new Headers({ authorization: `Bearer ${shop.keys[role]}` });
};

/** The newest sealed email to an address, opened as the email task opens it. */
async function lastEmailTo(to: string, kind: "invitation" | "password_reset") {
  const rows = await getDb()
    .select()
    .from(outboxEmails)
    .where(and(eq(outboxEmails.to, to), eq(outboxEmails.nodeId, kind)))
    .orderBy(sql`${outboxEmails.createdAt} desc`)
    .limit(1);
  const row = rows[0]!;
  expect(row.bodyHtml.startsWith(SEALED_BODY)).toBe(true);
  return { row, html: open(row.bodyHtml.slice(SEALED_BODY.length), sealedBodyContext(row.id)) };
}

describe("inviting", () => {
  test("the add-member input takes no password; an invitation is a hashed token, a sealed email in no shop's outbox, and a link shown once", async () => {
    expect(Object.keys(inviteInput.shape).sort()).toEqual(["email", "role"]);
    const shop = await createShop();
    asKey(shop, "admin");
    // A password sent along is not read: nothing of it reaches the database.
    const sent = await inviteUserAction({
      email: "New@Person.test",
      role: "editor",
      password: "mallory-1",
    } as never);
    expect(sent.ok, JSON.stringify(sent)).toBe(true);
    if (!sent.ok) return;
    expect(sent.data.email).toBe("new@person.test");
    const token = tokenOf(sent.data.link);
    expect(Buffer.from(token, "base64url")).toHaveLength(32);
    expect(await getDb().select().from(users).where(eq(users.email, "new@person.test"))).toEqual([]);
    expect(await listMembers(shop.tenant.id)).toEqual([]);

    const [row] = await getDb().select().from(invitations).where(eq(invitations.id, sent.data.id));
    expect(row).toMatchObject({ tenantId: shop.tenant.id, email: "new@person.test", role: "editor" });
    expect(row!.tokenHash).toBe(crypto.createHash("sha256").update(token).digest("base64url"));
    const days = (row!.expiresAt.getTime() - row!.createdAt.getTime()) / 86_400_000;
    expect(days).toBe(7);

    // Nowhere in the database is the token in clear.
    const [found] = await getDb().execute<{ n: string }>(sql`
      select (select count(*) from invitations where row_to_json(invitations)::text like ${`%${token}%`})
           + (select count(*) from outbox_emails where row_to_json(outbox_emails)::text like ${`%${token}%`}) as n`);
    expect(Number(found!.n)).toBe(0);

    const { row: email, html } = await lastEmailTo("new@person.test", "invitation");
    expect(email.tenantId).toBeNull();
    expect(email.subject).toBe(`You are invited to ${shop.tenant.name} on Tillflow`);
    expect(html).toContain(sent.data.link);
    // A viewer reads the shop's outbox: the invitation is not in it.
    expect((await listOutbox(shop.tenant.id)).items).toEqual([]);
    // The list shows the invitation, never its token.
    const listed = await listInvitations(shop.tenant.id);
    expect(listed.map((i) => [i.email, i.role, i.expired])).toEqual([["new@person.test", "editor", false]]);
    expect(JSON.stringify(listed)).not.toContain(token);
  });

  test("inviting an open invitation's email again re-sends it (the old link stops working); a member cannot be invited", async () => {
    const shop = await createShop();
    const admin = await callerOf(shop, "admin");
    const first = await inviteMember(admin, { email: "twice@shop.test", role: "viewer" });
    const second = await inviteMember(admin, { email: "twice@shop.test", role: "editor" });
    expect(second.invitation.id).toBe(first.invitation.id);
    expect((await viewInvitation(tokenOf(first.link))).ok).toBe(false);
    expect(await viewInvitation(tokenOf(second.link))).toMatchObject({ ok: true, role: "editor" });

    await addMember(shop.tenant.id, { email: "member@shop.test", role: "viewer", password: "password-1" });
    await expect(inviteMember(admin, { email: "Member@Shop.test", role: "admin" })).rejects.toThrow(
      /already a member/,
    );
  });

  test("a shop sends at most 30 invitations an hour, re-sends included; another shop is not held up", async () => {
    const flooding = await createShop();
    const quiet = await createShop();
    const admin = await callerOf(flooding, "admin");
    const first = await inviteMember(admin, { email: "n0@flood.test", role: "viewer" });
    for (let i = 1; i < 29; i++) await inviteMember(admin, { email: `n${i}@flood.test`, role: "viewer" });
    await resendInvitation(admin, first.invitation.id);
    const refused = await inviteMember(admin, { email: "n30@flood.test", role: "viewer" }).catch(
      (e: unknown) => e,
    );
    expect(refused).toMatchObject({
      status: 429,
      message: expect.stringMatching(
        /^This shop has sent 30 invitations this hour, the most an hour allows; send more in \d+ minutes?\.$/,
      ),
    });
    await expect(resendInvitation(admin, first.invitation.id)).rejects.toMatchObject({ status: 429 });
    // Nothing was written for the refused one, and the other shop invites as usual.
    expect((await listInvitations(flooding.tenant.id)).map((i) => i.email)).not.toContain("n30@flood.test");
    await inviteMember(await callerOf(quiet, "admin"), { email: "n30@flood.test", role: "viewer" });
  });

  test("viewers and editors cannot invite, re-send or revoke; another shop's invitation is a 404", async () => {
    const a = await createShop();
    const b = await createShop();
    const { invitation } = await inviteMember(await callerOf(a, "admin"), {
      email: "x@a.test",
      role: "viewer",
    });
    for (const role of ["viewer", "editor"] as const) {
      asKey(a, role);
      expect(await inviteUserAction({ email: "y@a.test", role: "admin" })).toMatchObject({
        ok: false,
        code: "forbidden",
      });
      expect(await resendInvitationAction({ id: invitation.id })).toMatchObject({
        ok: false,
        code: "forbidden",
      });
      expect(await revokeInvitationAction({ id: invitation.id })).toMatchObject({
        ok: false,
        code: "forbidden",
      });
    }
    asKey(b, "admin");
    expect(await resendInvitationAction({ id: invitation.id })).toMatchObject({
      ok: false,
      code: "not_found",
    });
    expect(await revokeInvitationAction({ id: invitation.id })).toMatchObject({
      ok: false,
      code: "not_found",
    });
    expect(await revokeInvitationAction({ id: "not-a-uuid" })).toMatchObject({
      ok: false,
      code: "not_found",
    });
    expect(await listInvitations(b.tenant.id)).toEqual([]);
    expect((await listInvitations(a.tenant.id)).map((i) => i.email)).toEqual(["x@a.test"]);
  });
});

describe("accepting", () => {
  test("a new person sets their own name and password, is signed in, and the shop's audit log says they joined", async () => {
    const shop = await createShop();
    const { link } = await inviteMember(await callerOf(shop, "admin"), {
      email: "ana@new.test",
      role: "editor",
    });
    const token = tokenOf(link);
    expect(await viewInvitation(token)).toMatchObject({
      ok: true,
      email: "ana@new.test",
      role: "editor",
      shopName: shop.tenant.name,
      hasLogin: false,
    });

    expect(
      await acceptInvitationAsNewLogin(token, NO_ERROR, form({ name: "Ana", password: "short" })),
    ).toEqual({
      error: "The details are invalid: password: use at least 8 characters.",
    });
    const done = await outcome(
      acceptInvitationAsNewLogin(token, NO_ERROR, form({ name: "Ana", password: "ana's own pw" })),
    );
    expect(done).toEqual({ redirect: "/dashboard" });
    // Signed in by the accept: a session of the new login (Next's cookie store sets its cookie;
    // outside Next, better-auth's nextCookies plugin skips that, so the row is what is checked).
    const [ana] = await getDb().select().from(users).where(eq(users.email, "ana@new.test"));
    expect(ana).toMatchObject({ name: "Ana", emailVerified: false });
    expect(await getDb().select().from(sessions).where(eq(sessions.userId, ana!.id))).toHaveLength(1);
    const { cookie } = await signIn("ana@new.test", "ana's own pw");
    expect(await resolveCaller(new Headers({ cookie }))).toMatchObject({
      tenant: { id: shop.tenant.id },
      role: "editor",
      actor: { kind: "user", email: "ana@new.test", name: "Ana" },
    });
    const entries = await getDb().select().from(auditEvents).where(eq(auditEvents.tenantId, shop.tenant.id));
    expect(entries.map((e) => [e.action, e.actor, e.detail.role])).toContainEqual([
      "user.joined",
      "ana@new.test",
      "editor",
    ]);
  });

  test("a token works once, for 7 days, until revoked or re-sent; a bad one gets a sentence, never an error", async () => {
    const shop = await createShop();
    const admin = await callerOf(shop, "admin");
    const accept = (token: string, email: string) =>
      outcome(acceptInvitationAsNewLogin(token, NO_ERROR, form({ name: email, password: "password-1" })));

    const used = await inviteMember(admin, { email: "once@shop.test", role: "viewer" });
    expect(await accept(tokenOf(used.link), "once")).toEqual({ redirect: "/dashboard" });
    expect(await viewInvitation(tokenOf(used.link))).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/already been used/),
    });
    expect(await accept(tokenOf(used.link), "again")).toEqual({
      error: expect.stringMatching(/already been used/),
    });

    const old = await inviteMember(admin, { email: "late@shop.test", role: "viewer" });
    await getDb()
      .update(invitations)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(invitations.id, old.invitation.id));
    expect(await viewInvitation(tokenOf(old.link))).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/expired/),
    });
    expect(await accept(tokenOf(old.link), "late")).toEqual({ error: expect.stringMatching(/expired/) });
    expect((await listInvitations(shop.tenant.id)).find((i) => i.email === "late@shop.test")?.expired).toBe(
      true,
    );

    const revoked = await inviteMember(admin, { email: "gone@shop.test", role: "viewer" });
    await revokeInvitation(admin, revoked.invitation.id);
    expect(await accept(tokenOf(revoked.link), "gone")).toEqual({
      error: expect.stringMatching(/withdrawn/),
    });

    // Re-sending the expired one: a new link that works, the old one still does not.
    const again = await resendInvitation(admin, old.invitation.id);
    expect(await accept(tokenOf(old.link), "late")).toEqual({ error: expect.stringMatching(/not valid/) });
    expect(await accept(tokenOf(again.link), "late")).toEqual({ redirect: "/dashboard" });

    for (const bad of ["nope", crypto.randomBytes(32).toString("base64url"), "../../etc", "x".repeat(5000)]) {
      expect(await viewInvitation(bad)).toMatchObject({
        ok: false,
        problem: expect.stringMatching(/not valid/),
      });
      expect(await accept(bad, "bad")).toEqual({ error: expect.stringMatching(/not valid/) });
    }
    expect((await listMembers(shop.tenant.id)).map((m) => m.email)).toEqual([
      "late@shop.test",
      "once@shop.test",
    ]);
    // The stored hash is of the token, never the token.
    expect(
      await getDb()
        .select()
        .from(invitations)
        .where(eq(invitations.tokenHash, tokenOf(again.link))),
    ).toEqual([]);
    expect(hashInvitationToken(tokenOf(again.link))).not.toBe(tokenOf(again.link));
  });

  test("an existing login joins only when its owner accepts while signed in as that email", async () => {
    const a = await createShop();
    const b = await createShop();
    await addMember(a.tenant.id, { email: "kim@shops.test", role: "admin", password: "kims-password" });
    await addMember(a.tenant.id, { email: "lee@shops.test", role: "admin", password: "lees-password" });
    const { link } = await inviteMember(await callerOf(b, "admin"), {
      email: "kim@shops.test",
      role: "viewer",
    });
    const token = tokenOf(link);
    // Inviting an existing email creates an invitation, not a membership.
    expect(await listMembers(b.tenant.id)).toEqual([]);
    expect(await viewInvitation(token)).toMatchObject({ ok: true, hasLogin: true });

    // The new-login form cannot be used for it (that would set another password on Kim's login).
    expect(
      await acceptInvitationAsNewLogin(token, NO_ERROR, form({ name: "K", password: "takeover-1" })),
    ).toEqual({
      error: expect.stringMatching(/already has a Tillflow login\. Sign in as kim@shops\.test/),
    });
    // Signed out, or signed in as someone else: a sentence, and nothing changes.
    expect(await acceptInvitationSignedIn(token)).toEqual({
      error: expect.stringMatching(/Sign in as the invited email/),
    });
    request.headers = new Headers({ cookie: (await signIn("lee@shops.test", "lees-password")).cookie });
    expect(await acceptInvitationSignedIn(token)).toEqual({
      error:
        "This invitation is for kim@shops.test, and you are signed in as lee@shops.test. Sign out, then sign in as kim@shops.test to accept it.",
    });
    // Signing in with the wrong password accepts nothing.
    request.headers = new Headers();
    expect(await acceptInvitationWithPassword(token, NO_ERROR, form({ password: "takeover-1" }))).toEqual({
      error: "That is not the password of kim@shops.test.",
    });
    expect(await listMembers(b.tenant.id)).toEqual([]);
    expect((await signIn("kim@shops.test", "takeover-1")).status).toBe(401);

    // Kim, signed in, accepts.
    request.headers = new Headers({ cookie: (await signIn("kim@shops.test", "kims-password")).cookie });
    expect(await outcome(acceptInvitationSignedIn(token))).toEqual({ redirect: "/dashboard" });
    expect((await listMembers(b.tenant.id)).map((m) => [m.email, m.role])).toEqual([
      ["kim@shops.test", "viewer"],
    ]);
    expect((await signIn("kim@shops.test", "kims-password")).status).toBe(200);

    // Signed out, Kim can sign in and accept in one step on the invitation page.
    const c = await createShop();
    const next = await inviteMember(await callerOf(c, "admin"), { email: "kim@shops.test", role: "editor" });
    request.headers = new Headers();
    expect(
      await outcome(
        acceptInvitationWithPassword(tokenOf(next.link), NO_ERROR, form({ password: "kims-password" })),
      ),
    ).toEqual({
      redirect: "/dashboard",
    });
    expect((await listMembers(c.tenant.id)).map((m) => [m.email, m.role])).toEqual([
      ["kim@shops.test", "editor"],
    ]);
  });
});

describe("the takeover of issue 47 fails", () => {
  test("shop A's admin invites and removes ops@victim.com; shop B invites it; the person accepts with their own password; A's admin has no password that works", async () => {
    const a = await createShop();
    const b = await createShop();
    const mallory = await callerOf(a, "admin");
    const typed = "mallory-chose-this";

    // Mallory invites ops@victim.com (any password she sends is not read) and revokes it.
    asKey(a, "admin");
    const invited = await inviteUserAction({
      email: "ops@victim.com",
      role: "admin",
      password: typed,
    } as never);
    expect(invited.ok).toBe(true);
    if (!invited.ok) return;
    await revokeInvitation(mallory, invited.data.id);
    expect(await getDb().select().from(users).where(eq(users.email, "ops@victim.com"))).toEqual([]);

    // Shop B invites the same email: an invitation, not a membership.
    const fromB = await inviteMember(await callerOf(b, "admin"), { email: "ops@victim.com", role: "admin" });
    expect(await listMembers(b.tenant.id)).toEqual([]);
    // Mallory's revoked link and her guesses at B's are refused.
    expect(await viewInvitation(tokenOf(invited.data.link))).toMatchObject({ ok: false });

    // The person accepts B's invitation with a password only they know.
    const done = await outcome(
      acceptInvitationAsNewLogin(
        tokenOf(fromB.link),
        NO_ERROR,
        form({ name: "Ops", password: "victims-own-pw" }),
      ),
    );
    expect(done).toEqual({ redirect: "/dashboard" });
    expect((await listMembers(b.tenant.id)).map((m) => [m.email, m.role])).toEqual([
      ["ops@victim.com", "admin"],
    ]);
    expect(await listMembers(a.tenant.id)).toEqual([]);

    // Mallory cannot sign in as them with anything she ever typed.
    expect((await signIn("ops@victim.com", typed)).status).toBe(401);
    expect((await signIn("ops@victim.com", "victims-own-pw")).status).toBe(200);
  });

  test("even when A's admin accepts their own link for the victim's email, B's invitation needs B's token, and a reset by email ends her password and sessions", async () => {
    const a = await createShop();
    const b = await createShop();
    const mallory = await callerOf(a, "admin");
    // Mallory uses the link she was shown to create ops@victim2.com with her password, then removes it.
    const own = await inviteMember(mallory, { email: "ops@victim2.com", role: "admin" });
    await outcome(
      acceptInvitationAsNewLogin(
        tokenOf(own.link),
        NO_ERROR,
        form({ name: "Ops", password: "mallory-pw-1" }),
      ),
    );
    const malloryCookie = (await signIn("ops@victim2.com", "mallory-pw-1")).cookie;
    expect(
      await getAuth().api.getSession({ headers: new Headers({ cookie: malloryCookie }) }),
    ).not.toBeNull();
    const [login] = await getDb().select().from(users).where(eq(users.email, "ops@victim2.com"));
    await removeMember(mallory, login!.id);
    // Removing the member ended the session Mallory had as them.
    expect(await getAuth().api.getSession({ headers: new Headers({ cookie: malloryCookie }) })).toBeNull();

    // B invites the email: the login exists, so only someone signed in as it can accept — with B's token.
    const fromB = await inviteMember(await callerOf(b, "admin"), { email: "ops@victim2.com", role: "admin" });
    expect(await listMembers(b.tenant.id)).toEqual([]);
    expect(
      await acceptInvitationAsNewLogin(
        tokenOf(fromB.link),
        NO_ERROR,
        form({ name: "X", password: "mallory-pw-2" }),
      ),
    ).toMatchObject({
      error: expect.stringMatching(/already has a Tillflow login/),
    });

    // The person resets the password by email (Mallory cannot read that email), then accepts.
    const malloryAgain = (await signIn("ops@victim2.com", "mallory-pw-1")).cookie;
    expect(
      await requestPasswordReset({ error: null, sent: null }, form({ email: "ops@victim2.com" })),
    ).toEqual({
      error: null,
      sent: "ops@victim2.com",
    });
    const { html, row } = await lastEmailTo("ops@victim2.com", "password_reset");
    expect(row.tenantId).toBeNull();
    const resetToken = html.match(/\/reset-password\/([A-Za-z0-9]+)/)![1]!;
    expect(resetToken.length).toBeGreaterThanOrEqual(22); // ≥ 128 bits of [A-Za-z0-9]
    expect(
      await outcome(resetPassword(resetToken, { error: null }, form({ password: "victims-own-pw" }))),
    ).toEqual({
      redirect: "/sign-in?reset=done",
    });
    expect((await signIn("ops@victim2.com", "mallory-pw-1")).status).toBe(401);
    expect(await getAuth().api.getSession({ headers: new Headers({ cookie: malloryAgain }) })).toBeNull();
    expect(
      await outcome(
        acceptInvitationWithPassword(
          tokenOf(fromB.link),
          { error: null },
          form({ password: "victims-own-pw" }),
        ),
      ),
    ).toEqual({ redirect: "/dashboard" });
    expect((await listMembers(b.tenant.id)).map((m) => m.email)).toEqual(["ops@victim2.com"]);
  });
});

describe("password reset by email", () => {
  test("the link works once, its token is stored hashed, unknown addresses get the same answer, and a flood is capped", async () => {
    const shop = await createShop();
    await addMember(shop.tenant.id, { email: "rae@shop.test", role: "editor", password: "old-password" });
    const sent = await requestPasswordReset({ error: null, sent: null }, form({ email: "Rae@Shop.test" }));
    expect(sent).toEqual({ error: null, sent: "rae@shop.test" });
    const { html } = await lastEmailTo("rae@shop.test", "password_reset");
    const token = html.match(/\/reset-password\/([A-Za-z0-9]+)/)![1]!;
    // better-auth stores `reset-password:<token>` as its SHA-256; the token itself is nowhere.
    const stored = await getDb().select().from(verifications);
    expect(JSON.stringify(stored)).not.toContain(token);
    const hashed = crypto.createHash("sha256").update(`reset-password:${token}`).digest("base64url");
    expect(stored.map((v) => v.identifier)).toContain(hashed);

    expect(await resetPassword(token, { error: null }, form({ password: "short" }))).toEqual({
      error: "Use at least 8 characters.",
    });
    expect(await outcome(resetPassword(token, { error: null }, form({ password: "new-password" })))).toEqual({
      redirect: "/sign-in?reset=done",
    });
    expect(await resetPassword(token, { error: null }, form({ password: "newer-password" }))).toEqual({
      error: expect.stringMatching(/does not work any more/),
    });
    expect((await signIn("rae@shop.test", "old-password")).status).toBe(401);
    expect((await signIn("rae@shop.test", "new-password")).status).toBe(200);

    // Nobody learns whether an address has a login.
    expect(
      await requestPasswordReset({ error: null, sent: null }, form({ email: "nobody@shop.test" })),
    ).toEqual({
      error: null,
      sent: "nobody@shop.test",
    });
    expect(await getDb().select().from(outboxEmails).where(eq(outboxEmails.to, "nobody@shop.test"))).toEqual(
      [],
    );
    // Anyone can ask, so one address gets at most 3 reset emails an hour.
    for (let i = 0; i < 4; i++)
      await requestPasswordReset({ error: null, sent: null }, form({ email: "rae@shop.test" }));
    const resets = await getDb()
      .select()
      .from(outboxEmails)
      .where(and(eq(outboxEmails.to, "rae@shop.test"), eq(outboxEmails.nodeId, "password_reset")));
    expect(resets).toHaveLength(3);
  });
});

describe("removing a member", () => {
  test("ends their sessions at once", async () => {
    const shop = await createShop();
    const member = await addMember(shop.tenant.id, {
      email: "sam@shop.test",
      role: "editor",
      password: "password-1",
    });
    const { cookie } = await signIn("sam@shop.test", "password-1");
    expect(await resolveCaller(new Headers({ cookie }))).toMatchObject({ tenant: { id: shop.tenant.id } });
    await removeMember(await callerOf(shop, "admin"), member.userId);
    expect(await getDb().select().from(sessions).where(eq(sessions.userId, member.userId))).toEqual([]);
    expect(await getAuth().api.getSession({ headers: new Headers({ cookie }) })).toBeNull();
    expect(await resolveCaller(new Headers({ cookie }))).toBeNull();
  });
});

describe("the invitation email", () => {
  test("goes out through SMTP with its link in clear, while the outbox row stays sealed", async () => {
    const smtp = await startSmtpServer();
    const before = process.env.SMTP_URL;
    process.env.SMTP_URL = smtp.url;
    try {
      const shop = await createShop();
      const { link } = await inviteMember(await callerOf(shop, "admin"), {
        email: "mail@new.test",
        role: "viewer",
      });
      const { row } = await lastEmailTo("mail@new.test", "invitation");
      expect(row.status).toBe("queued");
      // The email_send task's work (worker/tasks/email-send.ts is a thin wrapper over it).
      await sendOutboxEmail(row.id);
      expect(smtp.mails).toHaveLength(1);
      const message = smtp.mails[0]!.data.replace(/=\r\n/g, "").replace(/=3D/g, "=");
      expect(message).toContain(link);
      const [after] = await getDb().select().from(outboxEmails).where(eq(outboxEmails.id, row.id));
      expect(after).toMatchObject({ status: "sent" });
      expect(after!.bodyHtml).not.toContain(tokenOf(link));
    } finally {
      if (before === undefined) delete process.env.SMTP_URL;
      else process.env.SMTP_URL = before;
      await smtp.close();
    }
  });
});
