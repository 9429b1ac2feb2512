import { and, eq, sql } from "drizzle-orm";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { beforeAll, beforeEach, describe, expect, test } from "vitest";
import { PUT as capsRoute } from "@/app/api/v1/automations/[id]/caps/route";
import { POST as activateRoute } from "@/app/api/v1/automations/[id]/activate/route";
import { POST as eventsRoute } from "@/app/api/v1/events/route";
import { POST as releaseRoute } from "@/app/api/v1/runs/[id]/release/route";
import { POST as discardRoute } from "@/app/api/v1/runs/[id]/discard/route";
import { POST as releaseAllRoute } from "@/app/api/v1/runs/release/route";
import { POST as discardAllRoute } from "@/app/api/v1/runs/discard/route";
import { GET as listRunsRoute } from "@/app/api/v1/runs/route";
import { getDb } from "@/lib/db/client";
import { renderMetrics } from "@/lib/metrics/metrics";
import { auditEvents, automationRuns, automations } from "@/lib/db/schema";
import { getEntity, upsertEntity } from "@/lib/entities/service";
import { call, type ErrorReply } from "@/tests/helpers/fixtures";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { flow, publishFlow } from "@/tests/helpers/flows";
import { until } from "@/tests/helpers/poll";
import { workerForFile } from "@/tests/helpers/worker";

let shop: TestShop;
let other: TestShop;
beforeAll(async () => {
  other = await createShop();
});
// A shop per test: every flow here listens to order.paid, and each test counts its own runs and notes.
beforeEach(async () => {
  shop = await createShop();
});
workerForFile();

//  order_paid ──▶ add_note("Thanks")
const thankOnPaid = flow(
  [
    { id: "t", type: "auto.trigger.order_paid" },
    { id: "note", type: "auto.action.add_note", params: { body: "Thanks for paying" } },
  ],
  [["t", "note"]],
);

async function placeOrder(id: string) {
  await upsertEntity(
    shop.tenant.id,
    "order",
    id,
    { number: `#${id}`, status: "pending", total: 10, currency: "EUR", email: "ann@example.com" },
    "test",
  );
}

/** `order.paid` events posted through the API, one request: ids `<prefix>-<i>`. */
async function paid(entityIds: string[], prefix: string) {
  const reply = await call(eventsRoute, {
    method: "POST",
    key: shop.keys.editor,
    body: entityIds.map((entityId, i) => ({
      id: `${prefix}-${i}`,
      type: "order.paid",
      domain: "order",
      entityId,
    })),
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
}

const runsOf = (automationId: string) =>
  getDb()
    .select({
      id: automationRuns.id,
      status: automationRuns.status,
      entityId: automationRuns.entityId,
      heldReason: automationRuns.heldReason,
      reason: automationRuns.reason,
    })
    .from(automationRuns)
    .where(eq(automationRuns.automationId, automationId))
    .orderBy(automationRuns.createdAt, automationRuns.eventId);

/** `tillflow_runs_held` as Prometheus reads it from this process's metrics. */
async function heldGauge(): Promise<number> {
  const families = parsePrometheusTextFormat((await renderMetrics()).text);
  const family = families.find((f) => f.name === "tillflow_runs_held");
  const value = family?.metrics[0] && "value" in family.metrics[0] ? family.metrics[0].value : undefined;
  return Number(value);
}

const notesOn = async (orderId: string) => (await getEntity(shop.tenant.id, "order", orderId)).notes.length;

async function setCaps(id: string, body: unknown, key = shop.keys.editor) {
  return call<{ caps: Record<string, unknown> } & ErrorReply>(capsRoute, {
    method: "PUT",
    key,
    params: { id },
    body,
  });
}

describe("a per-record cap", () => {
  test("holds the second run for the same order; its release acts exactly once, a second release is a 409", async () => {
    const id = await publishFlow(shop.keys.editor, "Thank once per order", thankOnPaid);
    const capped = await setCaps(id, { maxPerRecord: { count: 1, hours: 16 } });
    expect(capped.status, JSON.stringify(capped.body)).toBe(200);
    expect(capped.body.caps).toEqual({ maxPerRecord: { count: 1, hours: 16 } });
    await placeOrder("rec-1");
    await placeOrder("rec-2");

    await paid(["rec-1"], "first");
    await until(
      () => runsOf(id),
      (runs) => runs[0]?.status === "succeeded",
      { timeoutMs: 15_000, what: "the first run" },
    );
    await paid(["rec-1", "rec-2"], "second");
    const runs = await until(
      () => runsOf(id),
      (rs) => rs.length === 3 && rs.every((r) => r.status === "succeeded" || r.status === "held"),
      { timeoutMs: 15_000, what: "the second order's run to succeed" },
    );
    const held = runs.filter((r) => r.status === "held");
    expect(held).toHaveLength(1);
    expect(held[0]).toMatchObject({ entityId: "rec-1" });
    expect(held[0]!.heldReason).toBe(
      "Held: this automation already ran once for this record in the last 16 hours, its cap.",
    );
    expect(await notesOn("rec-1")).toBe(1);
    expect(await notesOn("rec-2")).toBe(1);
    expect(await heldGauge()).toBe(1);

    // The Held list, as GET /api/v1/runs?status=held shows it, with the reason.
    const list = await call<{ items: { id: string; status: string; reason: string }[] }>(listRunsRoute, {
      key: shop.keys.viewer,
      path: `/api/v1/runs?status=held&automationId=${id}`,
    });
    expect(list.body.items.map((r) => [r.id, r.status, r.reason])).toEqual([
      [held[0]!.id, "held", held[0]!.heldReason],
    ]);

    // A viewer cannot release; another shop is told the run does not exist.
    expect(
      (await call(releaseRoute, { method: "POST", key: shop.keys.viewer, params: { id: held[0]!.id } }))
        .status,
    ).toBe(403);
    expect(
      (await call(releaseRoute, { method: "POST", key: other.keys.admin, params: { id: held[0]!.id } }))
        .status,
    ).toBe(404);

    const released = await call<{ runIds: string[]; impact: string }>(releaseRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id: held[0]!.id },
    });
    expect(released.status, JSON.stringify(released.body)).toBe(200);
    expect(released.body.runIds).toEqual([held[0]!.id]);
    const again = await call(releaseRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id: held[0]!.id },
    });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe("This run was already released, so it cannot be released.");

    await until(
      () => runsOf(id),
      (rs) => rs.every((r) => r.status === "succeeded"),
      {
        timeoutMs: 15_000,
        what: "the released run to succeed",
      },
    );
    expect(await heldGauge()).toBe(0);
    // Exactly once: the order has the first run's note and the released run's, no more.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await notesOn("rec-1")).toBe(2);
    const [audit] = await getDb()
      .select({ actor: auditEvents.actor })
      .from(auditEvents)
      .where(and(eq(auditEvents.tenantId, shop.tenant.id), eq(auditEvents.action, "run.released")));
    expect(audit?.actor).toMatch(/^API key /);
  });
});

describe("maxRunsPerHour with pauseOnStorm", () => {
  test("holds the runs past 5 in an hour, pauses the automation and says so in the audit log", async () => {
    const id = await publishFlow(shop.keys.editor, "Storm guard", thankOnPaid);
    expect((await setCaps(id, { maxRunsPerHour: 5, pauseOnStorm: true })).status).toBe(200);
    const orders = Array.from({ length: 8 }, (_, i) => `storm-${i}`);
    for (const o of orders) await placeOrder(o);

    await paid(orders, "storm");
    const runs = await until(
      () => runsOf(id),
      (rs) => rs.length === 8 && rs.filter((r) => r.status === "succeeded").length === 5,
      { timeoutMs: 15_000, what: "5 runs to succeed" },
    );
    expect(runs.filter((r) => r.status === "held").map((r) => r.heldReason)).toEqual(
      Array(3).fill("Held: this automation already started 5 runs in the last hour, its cap."),
    );
    const [paused] = await until(
      () => getDb().select({ status: automations.status }).from(automations).where(eq(automations.id, id)),
      ([row]) => row?.status === "paused",
      { timeoutMs: 15_000, what: "the automation to be paused" },
    );
    expect(paused?.status).toBe("paused");
    const [audit] = await getDb()
      .select({ actor: auditEvents.actor, detail: auditEvents.detail })
      .from(auditEvents)
      .where(and(eq(auditEvents.subjectId, id), eq(auditEvents.action, "automation.paused_on_storm")));
    expect(audit).toMatchObject({ actor: "Tillflow", detail: { maxRunsPerHour: 5, held: 3 } });

    // Releasing while it is paused would only cancel them: refused, with what to do.
    const refused = await call(releaseAllRoute, {
      method: "POST",
      key: shop.keys.editor,
      body: { automationId: id },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe(
      "'Storm guard' is paused; activate it first, then release its held runs.",
    );

    // One discarded by id, the rest released in bulk once it is active again: each starts exactly once.
    const heldIds = runs.filter((r) => r.status === "held").map((r) => r.id);
    expect(
      (await call(discardRoute, { method: "POST", key: shop.keys.editor, params: { id: heldIds[0]! } }))
        .status,
    ).toBe(200);
    expect(
      (await call(activateRoute, { method: "POST", key: shop.keys.editor, params: { id } })).status,
    ).toBe(200);
    const bulk = await call<{ runIds: string[]; impact: string }>(releaseAllRoute, {
      method: "POST",
      key: shop.keys.editor,
      body: { automationId: id },
    });
    expect(bulk.status, JSON.stringify(bulk.body)).toBe(200);
    expect(bulk.body.impact).toBe("2 held runs released; they start now.");
    expect(new Set(bulk.body.runIds)).toEqual(new Set(heldIds.slice(1)));
    const after = await until(
      () => runsOf(id),
      (rs) => rs.filter((r) => r.status === "succeeded").length === 7,
      { timeoutMs: 15_000, what: "the released runs to succeed" },
    );
    expect(after.find((r) => r.id === heldIds[0])).toMatchObject({
      status: "cancelled",
      reason: expect.stringMatching(/^Discarded by API key .*; it was held by a cap\.$/),
    });
    for (const o of orders)
      expect(await notesOn(o), o).toBe(o === after.find((r) => r.id === heldIds[0])?.entityId ? 0 : 1);
    const none = await call<{ impact: string }>(discardAllRoute, {
      method: "POST",
      key: shop.keys.editor,
      body: { automationId: id },
    });
    expect(none.body.impact).toBe("No runs are held.");
  });

  test("ten requests at once never start more than the cap between them", async () => {
    const id = await publishFlow(shop.keys.editor, "Five an hour", thankOnPaid);
    expect((await setCaps(id, { maxRunsPerHour: 5 })).status).toBe(200);
    const orders = Array.from({ length: 6 }, (_, i) => `race-${i}`);
    for (const o of orders) await placeOrder(o);
    await Promise.all(Array.from({ length: 10 }, (_, i) => paid(orders, `race-${i}`)));
    const runs = await runsOf(id);
    expect(runs).toHaveLength(60);
    expect(runs.filter((r) => r.status !== "held")).toHaveLength(5);
    // Not paused: pauseOnStorm is off.
    const [row] = await getDb()
      .select({ status: automations.status })
      .from(automations)
      .where(eq(automations.id, id));
    expect(row?.status).toBe("active");
  });
});

describe("setting caps", () => {
  test("is refused plainly for bad values and for viewers, and is a 404 for another shop", async () => {
    const id = await publishFlow(shop.keys.editor, "Capped by hand", thankOnPaid);
    const zero = await setCaps(id, { maxRunsPerHour: 0 });
    expect(zero.status).toBe(422);
    expect(JSON.stringify(zero.body)).toContain("Runs per hour must be at least 1.");
    const text = await setCaps(id, { maxPerRecord: { count: 1, hours: "sixteen" } });
    expect(text.status).toBe(422);
    expect((await setCaps(id, { maxRunsPerHour: 3 }, shop.keys.viewer)).status).toBe(403);
    expect((await setCaps(id, { maxRunsPerHour: 3 }, other.keys.admin)).status).toBe(404);
    const [row] = await getDb()
      .select({ caps: automations.caps })
      .from(automations)
      .where(eq(automations.id, id));
    expect(row?.caps).toBeNull();
  });

  test("takes a limit off with null and keeps the ones left out; the listeners see it at once", async () => {
    const id = await publishFlow(shop.keys.editor, "Loosened", thankOnPaid);
    await placeOrder("loose-1");
    expect((await setCaps(id, { maxRunsPerHour: 1, maxPerRecord: { count: 1, hours: 2 } })).status).toBe(200);
    const loosened = await setCaps(id, { maxRunsPerHour: null });
    expect(loosened.body.caps).toEqual({ maxPerRecord: { count: 1, hours: 2 } });
    expect((await setCaps(id, { maxPerRecord: null })).body.caps).toEqual({});
    // No caps left: both events for the same order start their runs.
    await paid(["loose-1", "loose-1"], "loose");
    const runs = await getDb().execute<{ n: number }>(
      sql`select count(*)::int as n from automation_runs where automation_id = ${id} and status <> 'held'`,
    );
    expect(runs[0]?.n).toBe(2);
  });
});
