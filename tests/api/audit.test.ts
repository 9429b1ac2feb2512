import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, test, vi } from "vitest";
import { POST as activateRoute } from "@/app/api/v1/automations/[id]/activate/route";
import { PUT as draftRoute } from "@/app/api/v1/automations/[id]/draft/route";
import { POST as pauseRoute } from "@/app/api/v1/automations/[id]/pause/route";
import { POST as publishRoute } from "@/app/api/v1/automations/[id]/publish/route";
import { POST as resetRoute } from "@/app/api/v1/automations/[id]/reset-to-builtin/route";
import { POST as restoreRoute } from "@/app/api/v1/automations/[id]/restore/route";
import { DELETE as archiveRoute } from "@/app/api/v1/automations/[id]/route";
import { POST as runNowRoute } from "@/app/api/v1/automations/[id]/run-now/route";
import { POST as revertRoute } from "@/app/api/v1/automations/[id]/versions/[version]/revert/route";
import { POST as cancelAllRoute } from "@/app/api/v1/automations/[id]/waiting/cancel-all/route";
import { POST as decideRoute } from "@/app/api/v1/approvals/[waitId]/route";
import { GET as auditRoute } from "@/app/api/v1/audit/route";
import { POST as shopCancelAllRoute } from "@/app/api/v1/waiting/cancel-all/route";
import { POST as cancelRoute } from "@/app/api/v1/waits/[id]/cancel/route";
import { POST as resumeNowRoute } from "@/app/api/v1/waits/[id]/resume-now/route";
import { createApiKeyAction } from "@/lib/actions/api-keys/create-api-key";
import { revokeApiKeyAction } from "@/lib/actions/api-keys/revoke-api-key";
import { updateShopAction } from "@/lib/actions/settings/update-shop";
import { changeUserRoleAction } from "@/lib/actions/users/change-user-role";
import { inviteUserAction } from "@/lib/actions/users/invite-user";
import { revokeInvitationAction } from "@/lib/actions/users/revoke-invitation";
import { resendInvitationAction } from "@/lib/actions/users/resend-invitation";
import { removeUserAction } from "@/lib/actions/users/remove-user";
import type { AuditItem } from "@/lib/audit/log";
import { auditSentence } from "@/lib/audit/words";
import { addMember } from "@/lib/auth/users";
import { builtinAutomation, ensureBuiltins } from "@/lib/automations/schedules/builtins";
import { getDb } from "@/lib/db/client";
import { automationRuns, automationRunWaits } from "@/lib/db/schema";
import { call, type ErrorReply } from "@/tests/helpers/fixtures";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { flow, publishFlow } from "@/tests/helpers/flows";
import { workerForFile } from "@/tests/helpers/worker";
import { placeOrder } from "@/tests/helpers/orders";

// Server actions read the caller from the request headers; here they carry an API key.
const request = vi.hoisted(() => ({ headers: new Headers() }));
vi.mock("next/headers", () => ({ headers: async () => request.headers }));
vi.mock("next/cache", () => ({ refresh: () => {}, revalidatePath: () => {} }));
const asKey = (key: string) => {
  request.headers = new Headers({ authorization: `Bearer ${key}` });
};

let shop: TestShop;
let other: TestShop;

beforeAll(async () => {
  shop = await createShop();
  other = await createShop();
});
workerForFile();

const label = (key: string) => `API key ${key.slice(0, 10)}…`;

async function audit(key: string, query = "") {
  return call<{ items: AuditItem[]; nextCursor: string | null }>(auditRoute, {
    key,
    path: `/api/v1/audit${query}`,
  });
}

/** Every audit entry of the shop, newest first, paging through with a small page size. */
async function allEntries(key: string, query = "") {
  const items: AuditItem[] = [];
  let cursor: string | null = null;
  do {
    const page = await audit(key, `?limit=4${query}${cursor ? `&cursor=${cursor}` : ""}`);
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    items.push(...page.body.items);
    cursor = page.body.nextCursor;
  } while (cursor);
  return items;
}

async function waitingRun(automationId: string, entityId: string, kind: "delay" | "approval" = "delay") {
  await expect
    .poll(
      async () => {
        const [run] = await getDb()
          .select({ status: automationRuns.status })
          .from(automationRuns)
          .where(and(eq(automationRuns.automationId, automationId), eq(automationRuns.entityId, entityId)));
        return run?.status ?? null;
      },
      { timeout: 15_000, interval: 50 },
    )
    .toBe("waiting");
  const waits = await getDb()
    .select({ id: automationRunWaits.id, entityId: automationRuns.entityId })
    .from(automationRunWaits)
    .innerJoin(automationRuns, eq(automationRuns.id, automationRunWaits.runId))
    .where(and(eq(automationRunWaits.automationId, automationId), eq(automationRunWaits.kind, kind)));
  const wait = waits.find((w) => w.entityId === entityId);
  expect(wait).toBeDefined();
  return wait!.id;
}

//  order_created ──▶ Wait 5 minutes ──▶ add_tag(later)
const waitFlow = flow(
  [
    { id: "t", type: "auto.trigger.order_created" },
    { id: "w", type: "auto.control.wait", params: { duration: 5, unit: "minutes" } },
    { id: "tag", type: "auto.action.add_tag", params: { tag: "later" } },
  ],
  [
    ["t", "w"],
    ["w", "tag"],
  ],
);

//  order_paid ──▶ review (approval) ──approved──▶ tag(reviewed)
const approvalFlow = flow(
  [
    { id: "t", type: "auto.trigger.order_paid" },
    {
      id: "review",
      type: "auto.control.approval",
      params: { title: "Review order {entity.number}", timeoutHours: 72, approverRole: "editor" },
    },
    { id: "ok", type: "auto.action.add_tag", params: { tag: "reviewed" } },
  ],
  [
    ["t", "review"],
    ["review", "ok", "approved"],
  ],
);

describe("audit log", () => {
  test("every kind of change leaves one entry naming who, what and which, in its own shop only", async () => {
    const editor = shop.keys.editor;
    const admin = shop.keys.admin;
    const ok = (res: { status: number; body: unknown }, status = 200) =>
      expect(res.status, JSON.stringify(res.body)).toBe(status);

    // Automations: publish (v1), publish again with a note (v2), pause, activate, revert, archive, restore.
    const id = await publishFlow(editor, "Tag VIPs", waitFlow);
    ok(await call(draftRoute, { method: "PUT", key: editor, params: { id }, body: { name: "Tag VIPs!" } }));
    ok(await call(publishRoute, { method: "POST", key: editor, params: { id }, body: { note: "renamed" } }));
    ok(await call(pauseRoute, { method: "POST", key: editor, params: { id } }));
    ok(await call(activateRoute, { method: "POST", key: editor, params: { id } }));
    ok(await call(revertRoute, { method: "POST", key: editor, params: { id, version: "1" } }));

    // Waits: cancel one, run one now, cancel the rest of this automation, then of the shop.
    for (const entity of ["w-1", "w-2", "w-3"]) await placeOrder(shop, entity);
    const w1 = await waitingRun(id, "w-1");
    const w2 = await waitingRun(id, "w-2");
    await waitingRun(id, "w-3");
    ok(await call(cancelRoute, { method: "POST", key: editor, params: { id: w1 } }));
    ok(await call(resumeNowRoute, { method: "POST", key: editor, params: { id: w2 } }));
    // The resumed wait is the worker's once it leaves "pending"; until then "cancel all" would take it too.
    await expect
      .poll(
        async () =>
          (await getDb().select().from(automationRunWaits).where(eq(automationRunWaits.id, w2)))[0]?.status,
        { timeout: 15_000, interval: 50 },
      )
      .not.toBe("pending");
    ok(await call(cancelAllRoute, { method: "POST", key: editor, params: { id } }));
    ok(await call(shopCancelAllRoute, { method: "POST", key: editor }));

    ok(await call(archiveRoute, { method: "DELETE", key: editor, params: { id } }));
    ok(await call(restoreRoute, { method: "POST", key: editor, params: { id } }));

    // An approval decision.
    const review = await publishFlow(editor, "Review", approvalFlow);
    // Paid after being created: a status change is what emits order.paid.
    await placeOrder(shop, "a-1");
    await placeOrder(shop, "a-1", { status: "paid" });
    const approval = await waitingRun(review, "a-1", "approval");
    ok(
      await call(decideRoute, {
        method: "POST",
        key: editor,
        params: { waitId: approval },
        body: { decision: "approved", note: "fine" },
      }),
    );

    // Built-ins: reset to the definition, run now (admins).
    await ensureBuiltins(shop.tenant.id);
    const builtin = (await builtinAutomation(shop.tenant.id, "mark-carts-abandoned"))!;
    ok(await call(resetRoute, { method: "POST", key: admin, params: { id: builtin.id } }));
    ok(await call(runNowRoute, { method: "POST", key: admin, params: { id: builtin.id } }), 202);

    // Users, API keys and shop settings go through their server actions (there is no REST route).
    asKey(admin);
    const invited = await inviteUserAction({ email: "kim@audit.test", role: "viewer" });
    expect(invited.ok, JSON.stringify(invited)).toBe(true);
    const invitationId = invited.ok ? invited.data.id : "";
    expect((await resendInvitationAction({ id: invitationId })).ok).toBe(true);
    expect((await revokeInvitationAction({ id: invitationId })).ok).toBe(true);
    // The person accepts (lib/auth/invitations.ts): the operator's path stands in for it here, and
    // tests/auth/invitations.test.ts proves the accept writes its own entry.
    const userId = (
      await addMember(shop.tenant.id, { email: "kim@audit.test", role: "viewer", password: "password-1" })
    ).userId;
    expect((await changeUserRoleAction({ userId, role: "editor" })).ok).toBe(true);
    expect((await removeUserAction({ userId })).ok).toBe(true);
    const created = await createApiKeyAction({ name: "Zapier", role: "viewer" });
    expect(created.ok, JSON.stringify(created)).toBe(true);
    const keyId = created.ok ? created.data.id : "";
    expect((await revokeApiKeyAction({ id: keyId })).ok).toBe(true);
    expect((await updateShopAction({ name: "Audited shop", timezone: "Europe/Berlin" })).ok).toBe(true);

    const entries = await allEntries(admin);
    const got = entries.map((e) => [e.action, e.actor, e.subjectType, e.subjectId] as const).reverse();
    expect(got).toEqual([
      ["automation.published", label(editor), "automation", id],
      ["automation.published", label(editor), "automation", id],
      ["automation.paused", label(editor), "automation", id],
      ["automation.activated", label(editor), "automation", id],
      ["automation.reverted", label(editor), "automation", id],
      ["wait.cancelled", label(editor), "wait", w1],
      ["wait.resumed_now", label(editor), "wait", w2],
      ["waits.cancelled_all", label(editor), "automation", id],
      ["waits.cancelled_all", label(editor), "shop", shop.tenant.id],
      ["automation.archived", label(editor), "automation", id],
      ["automation.restored", label(editor), "automation", id],
      ["automation.published", label(editor), "automation", review],
      ["approval.decided", label(editor), "approval", approval],
      ["automation.reset_to_builtin", label(admin), "automation", builtin.id],
      ["automation.run_now", label(admin), "automation", builtin.id],
      ["user.invited", label(admin), "invitation", invitationId],
      ["user.invitation_resent", label(admin), "invitation", invitationId],
      ["user.invitation_revoked", label(admin), "invitation", invitationId],
      ["user.role_changed", label(admin), "user", userId],
      ["user.removed", label(admin), "user", userId],
      ["api_key.created", label(admin), "api_key", keyId],
      ["api_key.revoked", label(admin), "api_key", keyId],
      ["shop.updated", label(admin), "shop", shop.tenant.id],
    ]);
    // No entry twice across pages, and newest first.
    expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length);
    const times = entries.map((e) => e.at);
    expect([...times].sort().reverse()).toEqual(times);

    const byAction = (action: string) => entries.filter((e) => e.action === action);
    expect(byAction("automation.published").at(-1)!.detail).toMatchObject({
      version: 1,
      note: "first version",
    });
    expect(byAction("automation.published").at(-2)!.detail).toMatchObject({ version: 2, note: "renamed" });
    expect(byAction("automation.reverted")[0]!.detail).toMatchObject({
      fromVersion: 2,
      toVersion: 1,
      version: 3,
    });
    expect(byAction("waits.cancelled_all").map((e) => e.detail.cancelled)).toEqual([0, 1]);
    expect(byAction("user.role_changed")[0]!.detail).toEqual({
      email: "kim@audit.test",
      from: "viewer",
      to: "editor",
    });
    expect(auditSentence(byAction("automation.published").at(-2)!)).toBe(
      `${label(editor)} published 'Tag VIPs!' version 2 — 'renamed'`,
    );

    // Filters: one kind, one action, one subject.
    const users = await allEntries(admin, "&action=users");
    expect(users.map((e) => e.action)).toEqual([
      "user.removed",
      "user.role_changed",
      "user.invitation_revoked",
      "user.invitation_resent",
      "user.invited",
    ]);
    expect((await allEntries(admin, "&action=automation.paused")).map((e) => e.subjectId)).toEqual([id]);
    expect((await allEntries(admin, `&subjectId=${keyId}`)).map((e) => e.action)).toEqual([
      "api_key.revoked",
      "api_key.created",
    ]);

    // Another shop sees none of it, and this shop's admin does not see the other shop's.
    expect(await allEntries(other.keys.admin)).toEqual([]);
    asKey(other.keys.admin);
    expect((await updateShopAction({ name: "Other", timezone: "UTC" })).ok).toBe(true);
    expect((await allEntries(other.keys.admin)).map((e) => e.action)).toEqual(["shop.updated"]);
    expect((await allEntries(admin)).length).toBe(entries.length);
  });

  test("only admins read the log; a bad filter or cursor is a 4xx that names it", async () => {
    for (const key of [shop.keys.viewer, shop.keys.editor]) {
      const refused = await call<ErrorReply>(auditRoute, { key, path: "/api/v1/audit" });
      expect(refused.status).toBe(403);
      expect(refused.body.error.message).toBe("Only an admin can do this.");
    }
    expect((await call(auditRoute, { path: "/api/v1/audit" })).status).toBe(401);
    const badAction = await audit(shop.keys.admin, "?action=nope");
    expect(badAction.status).toBe(422);
    expect(JSON.stringify(badAction.body)).toMatch(/action/);
    expect((await audit(shop.keys.admin, "?cursor=garbage")).status).toBe(400);
    expect((await audit(shop.keys.admin, "?limit=0")).status).toBe(422);
  });

  test("a refused change leaves no entry", async () => {
    const before = (await allEntries(shop.keys.admin)).length;
    const id = await publishFlow(shop.keys.editor, "Refusals", waitFlow);
    // Viewer: 403; another shop: 404; archiving a built-in: 409.
    expect((await call(pauseRoute, { method: "POST", key: shop.keys.viewer, params: { id } })).status).toBe(
      403,
    );
    expect((await call(pauseRoute, { method: "POST", key: other.keys.editor, params: { id } })).status).toBe(
      404,
    );
    await ensureBuiltins(shop.tenant.id);
    const builtin = (await builtinAutomation(shop.tenant.id, "mark-carts-abandoned"))!;
    expect(
      (await call(archiveRoute, { method: "DELETE", key: shop.keys.admin, params: { id: builtin.id } }))
        .status,
    ).toBe(409);
    expect((await allEntries(shop.keys.admin)).length).toBe(before + 1);
  });
});
