import { and, eq, sql } from "drizzle-orm";
import { beforeAll, expect, test } from "vitest";
import { POST as activateRoute } from "@/app/api/v1/automations/[id]/activate/route";
import { PUT as draftRoute } from "@/app/api/v1/automations/[id]/draft/route";
import { POST as pauseRoute } from "@/app/api/v1/automations/[id]/pause/route";
import { POST as publishRoute } from "@/app/api/v1/automations/[id]/publish/route";
import { POST as resetRoute } from "@/app/api/v1/automations/[id]/reset-to-builtin/route";
import { POST as runNowRoute } from "@/app/api/v1/automations/[id]/run-now/route";
import { GET as versionsRoute } from "@/app/api/v1/automations/[id]/versions/route";
import { assertArchivable } from "@/lib/automations/lifecycle/archive";
import { builtinAutomation, BUILTINS, ensureBuiltins } from "@/lib/automations/schedules/builtins";
import { scheduleTick } from "@/lib/automations/schedules/tick";
import { getDb } from "@/lib/db/client";
import { automationRuns, automations, automationSchedules, entities } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import { call, type ErrorReply } from "@/tests/helpers/fixtures";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { flow, publishFlow, settledRuns } from "@/tests/helpers/flows";
import { workerForFile } from "@/tests/helpers/worker";

let shop: TestShop;
let other: TestShop;
beforeAll(async () => {
  shop = await createShop();
  other = await createShop();
  await getDb().execute(sql`update tenants set timezone = 'Europe/Berlin' where id = ${shop.tenant.id}`);
});
workerForFile();

test("built-ins are seeded by slug once per shop, active, in the shop's time zone, with a schedule", async () => {
  expect(await ensureBuiltins(shop.tenant.id)).toBe(BUILTINS.length);
  expect(await ensureBuiltins(shop.tenant.id)).toBe(0);
  const carts = await builtinAutomation(shop.tenant.id, "mark-carts-abandoned");
  expect(carts).toMatchObject({ status: "active", version: 1, name: "Mark carts abandoned" });
  expect(carts!.activeGraph!.nodes[0]!.params).toEqual({ cron: "*/15 * * * *", timezone: "Europe/Berlin" });
  const [schedule] = await getDb()
    .select()
    .from(automationSchedules)
    .where(eq(automationSchedules.automationId, carts!.id));
  expect(schedule!.nextFireAt!.getTime()).toBeGreaterThan(Date.now());
});

test("a missing built-in is re-created on the next tick", async () => {
  await ensureBuiltins(shop.tenant.id);
  const purge = await builtinAutomation(shop.tenant.id, "purge-run-history");
  await getDb().delete(automations).where(eq(automations.id, purge!.id));
  expect(await builtinAutomation(shop.tenant.id, "purge-run-history")).toBeNull();
  const result = await scheduleTick();
  expect(result.builtinsCreated).toBeGreaterThanOrEqual(1);
  const again = await builtinAutomation(shop.tenant.id, "purge-run-history");
  expect(again).toMatchObject({ status: "active", version: 1 });
  expect(again!.id).not.toBe(purge!.id);
});

//  cart_abandoned ──▶ add_tag(recover)      (the shop's own flow)
//  built-in: schedule(*/15) ──▶ mark_carts_abandoned(idle 60 min)
test("the abandoned-cart built-in marks idle carts abandoned and emits the event a cart_abandoned flow consumes", async () => {
  await ensureBuiltins(shop.tenant.id);
  const hour = 3_600_000;
  const cart = (id: string, status: string, idleMs: number) => ({
    tenantId: shop.tenant.id,
    domain: "cart",
    id,
    data: { status, total: 40, items: [], updatedAt: new Date(Date.now() - idleMs).toISOString() },
    status,
    updatedAt: new Date(Date.now() - idleMs),
  });
  await getDb()
    .insert(entities)
    .values([
      cart("idle", "open", 2 * hour),
      cart("fresh", "open", 60_000),
      cart("bought", "converted", 5 * hour),
    ]);
  const recover = await publishFlow(
    shop.keys.editor,
    "Recover carts",
    flow(
      [
        { id: "t", type: "auto.trigger.cart_abandoned" },
        { id: "tag", type: "auto.action.add_tag", params: { tag: "recover" } },
      ],
      [["t", "tag"]],
    ),
  );
  const builtin = await builtinAutomation(shop.tenant.id, "mark-carts-abandoned");
  const fired = await call(runNowRoute, {
    method: "POST",
    key: shop.keys.admin,
    params: { id: builtin!.id },
  });
  expect(fired.status).toBe(202);

  const [job] = await settledRuns(builtin!.id, 1);
  expect(job!.status).toBe("succeeded");
  const [recovered] = await settledRuns(recover, 1);
  expect(recovered!.status).toBe("succeeded");
  const carts = await getDb()
    .select({ id: entities.id, status: entities.status, tags: entities.tags, data: entities.data })
    .from(entities)
    .where(and(eq(entities.tenantId, shop.tenant.id), eq(entities.domain, "cart")))
    .orderBy(entities.id);
  expect(carts.map((c) => [c.id, c.status, c.data.status, c.tags])).toEqual([
    ["bought", "converted", "converted", []],
    ["fresh", "open", "open", []],
    ["idle", "abandoned", "abandoned", ["recover"]],
  ]);
  const [run] = await getDb().select().from(automationRuns).where(eq(automationRuns.automationId, recover));
  expect(run).toMatchObject({ domain: "cart", entityId: "idle" });
  expect(run!.event).toMatchObject({ type: "cart.abandoned", payload: { from: "open", to: "abandoned" } });
});

test("Reset to built-in publishes the definition as a new version; only admins change built-ins", async () => {
  await ensureBuiltins(shop.tenant.id);
  const builtin = await builtinAutomation(shop.tenant.id, "mark-invoices-overdue");
  const id = builtin!.id;
  const edited = {
    ...builtin!.activeGraph!,
    nodes: builtin!.activeGraph!.nodes.map((n) =>
      n.type === "auto.trigger.schedule" ? { ...n, params: { cron: "0 6 * * *", timezone: "UTC" } } : n,
    ),
  };
  const editorTry = await call<ErrorReply>(draftRoute, {
    method: "PUT",
    key: shop.keys.editor,
    params: { id },
    body: { graph: edited },
  });
  expect(editorTry.status).toBe(403);
  expect(
    (await call(draftRoute, { method: "PUT", key: shop.keys.admin, params: { id }, body: { graph: edited } }))
      .status,
  ).toBe(200);
  const published = await call<{ automation: { version: number } }>(publishRoute, {
    method: "POST",
    key: shop.keys.admin,
    params: { id },
    body: { note: "Daily is enough" },
  });
  expect(published.body.automation.version).toBe(2);
  await call(pauseRoute, { method: "POST", key: shop.keys.admin, params: { id } });

  expect((await call(resetRoute, { method: "POST", key: shop.keys.editor, params: { id } })).status).toBe(
    403,
  );
  expect((await call(resetRoute, { method: "POST", key: other.keys.admin, params: { id } })).status).toBe(
    404,
  );
  const reset = await call<{ version: number; status: string; activeGraph: unknown; builtinSlug: string }>(
    resetRoute,
    {
      method: "POST",
      key: shop.keys.admin,
      params: { id },
    },
  );
  expect(reset.status).toBe(200);
  expect(reset.body).toMatchObject({ version: 3, status: "paused", builtinSlug: "mark-invoices-overdue" });
  expect(reset.body.activeGraph).toEqual(
    BUILTINS.find((b) => b.slug === "mark-invoices-overdue")!.graph("Europe/Berlin"),
  );
  const versions = await call<{ items: { version: number; note: string }[] }>(versionsRoute, {
    key: shop.keys.viewer,
    params: { id },
  });
  expect(versions.body.items.map((v) => [v.version, v.note])).toEqual([
    [3, "Reset to the built-in definition."],
    [2, "Daily is enough"],
    [1, "The built-in definition."],
  ]);
  // Still paused: no schedule fires.
  expect(
    await getDb().select().from(automationSchedules).where(eq(automationSchedules.automationId, id)),
  ).toEqual([]);

  const plain = await publishFlow(
    shop.keys.editor,
    "Mine",
    flow(
      [
        { id: "t", type: "auto.trigger.order_created" },
        { id: "a", type: "auto.action.add_tag", params: { tag: "x" } },
      ],
      [["t", "a"]],
    ),
  );
  const refused = await call<ErrorReply>(resetRoute, {
    method: "POST",
    key: shop.keys.admin,
    params: { id: plain },
  });
  expect(refused.status).toBe(409);
  expect(refused.body.error.message).toBe("Only a built-in automation can be reset.");
});

test("a built-in cannot be archived, by the service's check or by the database's", async () => {
  await ensureBuiltins(shop.tenant.id);
  const builtin = await builtinAutomation(shop.tenant.id, "purge-run-history");
  expect(() => assertArchivable(builtin!)).toThrow(AppError);
  expect(() => assertArchivable(builtin!)).toThrow(/cannot be archived; pause it/);
  await expect(
    getDb().update(automations).set({ status: "archived" }).where(eq(automations.id, builtin!.id)),
  ).rejects.toThrow();
  expect(() => assertArchivable({ builtinSlug: null })).not.toThrow();
});

test("a built-in's slug cannot be changed through the API", async () => {
  await ensureBuiltins(shop.tenant.id);
  const builtin = await builtinAutomation(shop.tenant.id, "purge-run-history");
  const res = await call<ErrorReply>(draftRoute, {
    method: "PUT",
    key: shop.keys.admin,
    params: { id: builtin!.id },
    body: { builtinSlug: "something-else" },
  });
  expect(res.status).toBe(422);
  expect(res.body.error.message).toBe('The draft is invalid: Unrecognized key: "builtinSlug".');
  expect((await builtinAutomation(shop.tenant.id, "purge-run-history"))!.id).toBe(builtin!.id);
});

//  built-in: schedule(hourly) ──▶ mark_invoices_overdue     built-in: schedule(nightly) ──▶ purge_run_history(90 days)
test("the overdue-invoice and purge built-ins do their jobs and touch nothing else", async () => {
  await ensureBuiltins(shop.tenant.id);
  const day = 86_400_000;
  const invoice = (id: string, status: string, dueInDays: number) => ({
    tenantId: shop.tenant.id,
    domain: "invoice",
    id,
    data: {
      customerId: "c1",
      amount: 10,
      status,
      dueAt: new Date(Date.now() + dueInDays * day).toISOString(),
    },
    status,
  });
  await getDb()
    .insert(entities)
    .values([invoice("late", "sent", -3), invoice("not-yet", "sent", 3), invoice("settled", "paid", -3)]);
  const invoices = await builtinAutomation(shop.tenant.id, "mark-invoices-overdue");
  // This shop's overdue-invoice built-in may have been reset and paused by an earlier test.
  await call(activateRoute, { method: "POST", key: shop.keys.admin, params: { id: invoices!.id } });
  expect(
    (await call(runNowRoute, { method: "POST", key: shop.keys.admin, params: { id: invoices!.id } })).status,
  ).toBe(202);
  await settledRuns(invoices!.id, 1);
  const statuses = await getDb()
    .select({ id: entities.id, status: entities.status })
    .from(entities)
    .where(and(eq(entities.tenantId, shop.tenant.id), eq(entities.domain, "invoice")))
    .orderBy(entities.id);
  expect(statuses).toEqual([
    { id: "late", status: "overdue" },
    { id: "not-yet", status: "sent" },
    { id: "settled", status: "paid" },
  ]);

  // Runs to purge: finished 100 days ago (gone), finished yesterday (kept), waiting for 100 days (kept),
  // and another shop's old run (kept).
  const purge = await builtinAutomation(shop.tenant.id, "purge-run-history");
  await ensureBuiltins(other.tenant.id);
  const otherPurge = await builtinAutomation(other.tenant.id, "purge-run-history");
  const run = (tenantId: string, automationId: string, eventId: string, status: string, ageDays: number) => ({
    tenantId,
    automationId,
    automationVersion: 1,
    status: status as "succeeded",
    eventId,
    triggerNodeId: "schedule",
    event: {
      id: eventId,
      type: "schedule.fired",
      domain: "schedule",
      entityId: null,
      entityStatus: null,
      payload: {},
      occurredAt: new Date().toISOString(),
    },
    domain: "schedule",
    createdAt: new Date(Date.now() - ageDays * day),
    finishedAt: status === "waiting" ? null : new Date(Date.now() - ageDays * day),
  });
  await getDb()
    .insert(automationRuns)
    .values([
      run(shop.tenant.id, purge!.id, "old", "succeeded", 100),
      run(shop.tenant.id, purge!.id, "recent", "failed", 1),
      run(shop.tenant.id, purge!.id, "parked", "waiting", 100),
      run(other.tenant.id, otherPurge!.id, "theirs", "succeeded", 100),
    ]);
  expect(
    (await call(runNowRoute, { method: "POST", key: shop.keys.admin, params: { id: purge!.id } })).status,
  ).toBe(202);
  await expect
    .poll(
      async () =>
        (
          await getDb()
            .select({ eventId: automationRuns.eventId, status: automationRuns.status })
            .from(automationRuns)
            .where(sql`${automationRuns.automationId} in (${purge!.id}, ${otherPurge!.id})`)
        )
          .filter((r) => (r.eventId.startsWith("schedule:") ? r.status === "succeeded" : true))
          .map((r) => (r.eventId.startsWith("schedule:") ? "the purge run" : r.eventId))
          .sort(),
      { timeout: 15_000, interval: 100 },
    )
    .toEqual(["parked", "recent", "the purge run", "theirs"]);
});
