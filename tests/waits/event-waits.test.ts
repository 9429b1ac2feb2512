import crypto from "node:crypto";
import { and, asc, eq, type SQL, sql } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { POST as hookRoute } from "@/app/api/hooks/[token]/route";
import { POST as resumeNowRoute } from "@/app/api/v1/waits/[id]/resume-now/route";
import { lookBackForEvents, lookBackSql } from "@/lib/automations/engine/event-waits";
import { getDb } from "@/lib/db/client";
import { automationRuns, automationRunSteps, automationRunWaits, entities } from "@/lib/db/schema";
import { upsertEntity } from "@/lib/entities/service";
import { ingestEvent } from "@/lib/automations/engine/start/api";
import { call, type ErrorReply } from "@/tests/helpers/fixtures";
import { flow, publishFlow, republish } from "@/tests/helpers/flows";
import { placeOrder } from "@/tests/helpers/orders";
import { runInStatus, until } from "@/tests/helpers/poll";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { workerForFile } from "@/tests/helpers/worker";

/*
 * SPEC §2 "Wait for an event", with the real worker: runs wait for something to happen, each is
 * woken by its own event only, and a wait that nothing wakes times out.
 */

let shop: TestShop;
beforeAll(async () => {
  shop = await createShop();
});
const worker = workerForFile();

//  order paid ──▶ wait for order.fulfilled (same order) ──received──▶ tag "shipped-{steps.w.event.type}"
//                                                        └─timed_out─▶ tag "reminded"
const paidThenFulfilled = (timeoutHours = 72) =>
  flow(
    [
      { id: "t", type: "auto.trigger.order_paid" },
      { id: "w", type: "auto.control.wait_for_event", params: { event: "order.fulfilled", timeoutHours } },
      { id: "got", type: "auto.action.add_tag", params: { tag: "got-{steps.w.event.type}" } },
      { id: "late", type: "auto.action.add_tag", params: { tag: "reminded" } },
    ],
    [
      ["t", "w"],
      ["w", "got", "received"],
      ["w", "late", "timed_out"],
    ],
  );

async function runOf(automationId: string, entityId: string) {
  return until(
    async () =>
      (
        await getDb()
          .select()
          .from(automationRuns)
          .where(and(eq(automationRuns.automationId, automationId), eq(automationRuns.entityId, entityId)))
      )[0],
    (run) => run !== undefined,
    { timeoutMs: 10_000, what: `a run of ${automationId} for ${entityId}` },
  ).then((run) => run!);
}

async function waitOf(runId: string) {
  return until(
    async () =>
      (await getDb().select().from(automationRunWaits).where(eq(automationRunWaits.runId, runId)))[0],
    (w) => w !== undefined,
    { timeoutMs: 10_000, what: `the wait of run ${runId}` },
  ).then((w) => w!);
}

async function tagsOf(id: string) {
  const [row] = await getDb().select({ tags: entities.tags }).from(entities).where(eq(entities.id, id));
  return row?.tags ?? [];
}

async function stepsOf(runId: string) {
  return getDb()
    .select({
      nodeId: automationRunSteps.nodeId,
      status: automationRunSteps.status,
      reason: automationRunSteps.reason,
      output: automationRunSteps.output,
    })
    .from(automationRunSteps)
    .where(eq(automationRunSteps.runId, runId))
    .orderBy(asc(automationRunSteps.leg), asc(automationRunSteps.position));
}

async function payOrder(id: string, email = `${id}@example.com`) {
  await placeOrder(shop, id, { email });
  await placeOrder(shop, id, { email, status: "paid" });
}

describe("waiting for an order to be fulfilled", () => {
  let automationId: string;
  beforeAll(async () => {
    automationId = await publishFlow(shop.keys.editor, "Fulfilled or remind", paidThenFulfilled());
  });

  test("a PATCH that fulfils the order wakes its run onto 'received'; another order's run keeps waiting", async () => {
    await payOrder("ew-1");
    await payOrder("ew-2");
    const first = await runInStatus((await runOf(automationId, "ew-1")).id, ["waiting"]);
    const second = await runInStatus((await runOf(automationId, "ew-2")).id, ["waiting"]);
    const wait = await waitOf(first.id);
    expect(wait).toMatchObject({ kind: "event", matchEvent: "order.fulfilled", matchKey: "r:order:ew-1" });

    await placeOrder(shop, "ew-1", { email: "ew-1@example.com", status: "fulfilled" });
    const done = await runInStatus(first.id, ["succeeded"]);
    expect(done.status).toBe("succeeded");
    expect(await tagsOf("ew-1")).toContain("got-order.fulfilled");
    const steps = await stepsOf(first.id);
    const waitStep = steps.find((s) => s.nodeId === "w")!;
    expect(waitStep.status).toBe("success");
    expect(waitStep.reason).toContain("Received order.fulfilled");
    expect(waitStep.output).toMatchObject({
      waitingFor: "order.fulfilled",
      event: { type: "order.fulfilled", entityId: "ew-1" },
    });
    expect(steps.map((s) => s.nodeId)).not.toContain("late");

    // The other order's run was not woken by ew-1's event.
    const other = (await getDb().select().from(automationRuns).where(eq(automationRuns.id, second.id)))[0]!;
    expect(other.status).toBe("waiting");
    expect((await waitOf(second.id)).status).toBe("pending");
    expect(await tagsOf("ew-2")).not.toContain("got-order.fulfilled");
  });

  test("Resume now (nothing came) takes 'timed_out'", async () => {
    await payOrder("ew-3");
    const run = await runInStatus((await runOf(automationId, "ew-3")).id, ["waiting"]);
    const wait = await waitOf(run.id);
    const res = await call<ErrorReply>(resumeNowRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id: wait.id },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await runInStatus(run.id, ["succeeded"]);
    expect(await tagsOf("ew-3")).toEqual(expect.arrayContaining(["reminded"]));
    const waitStep = (await stepsOf(run.id)).find((s) => s.nodeId === "w")!;
    expect(waitStep.output).toMatchObject({
      waitingFor: "order.fulfilled",
      resumedNowBy: expect.any(String),
    });
    expect(waitStep.output).not.toHaveProperty("event");
    expect(await tagsOf("ew-3")).not.toContain("got-order.fulfilled");
    // A fulfilment after the run went on wakes nothing and starts nothing twice.
    await placeOrder(shop, "ew-3", { email: "ew-3@example.com", status: "fulfilled" });
    expect((await waitOf(run.id)).wokenEvent).toBeNull();
  });

  test("the time limit passing takes 'timed_out' (the job fires with no event)", async () => {
    await payOrder("ew-4");
    const run = await runInStatus((await runOf(automationId, "ew-4")).id, ["waiting"]);
    const wait = await waitOf(run.id);
    // The clock of the wait's job, moved to now: what graphile-worker does when the timeout comes.
    await getDb().execute(
      sql`update graphile_worker._private_jobs set run_at = now() where key = ${wait.id}`,
    );
    await getDb().execute(sql`select pg_notify('jobs:insert', '{"count":1}')`);
    await runInStatus(run.id, ["succeeded"]);
    expect(await tagsOf("ew-4")).toContain("reminded");
  });

  test("an event recorded after the run began but before its wait was written wakes it (look back)", async () => {
    await worker.stop();
    try {
      await payOrder("ew-5");
      const run = await runOf(automationId, "ew-5");
      // The run is queued: its first leg has not reached the wait yet when the order is fulfilled.
      await placeOrder(shop, "ew-5", { email: "ew-5@example.com", status: "fulfilled" });
      expect(run.status).toBe("queued");
    } finally {
      await worker.start();
    }
    const run = await runOf(automationId, "ew-5");
    await runInStatus(run.id, ["succeeded"]);
    expect(await tagsOf("ew-5")).toContain("got-order.fulfilled");
    expect(await tagsOf("ew-5")).not.toContain("reminded");
  });

  test("pausing the automation cancels a woken run's wait instead of resuming it (the wake table)", async () => {
    const pausedId = await publishFlow(shop.keys.editor, "Paused later", paidThenFulfilled());
    await payOrder("ew-6");
    const run = await runInStatus((await runOf(pausedId, "ew-6")).id, ["waiting"]);
    await getDb().execute(sql`update automations set status = 'paused' where id = ${pausedId}`);
    await placeOrder(shop, "ew-6", { email: "ew-6@example.com", status: "fulfilled" });
    const ended = await runInStatus(run.id, ["cancelled"]);
    expect(ended.status).toBe("cancelled");
    expect((await stepsOf(run.id)).map((s) => s.nodeId)).not.toContain("got");
  });

  test("an edit that keeps the wait's steps lets a woken run go on under the new version", async () => {
    const editedId = await publishFlow(shop.keys.editor, "Edited later", paidThenFulfilled());
    await payOrder("ew-7");
    const run = await runInStatus((await runOf(editedId, "ew-7")).id, ["waiting"]);
    const edited = paidThenFulfilled();
    edited.nodes.push({ id: "extra", type: "auto.action.add_note", params: { body: "v2" } });
    edited.edges.push({ id: "e9", source: "t", target: "extra", sourceHandle: "out" });
    await republish(shop.keys.editor, editedId, edited, "move_to_latest");
    await placeOrder(shop, "ew-7", { email: "ew-7@example.com", status: "fulfilled" });
    const done = await runInStatus(run.id, ["succeeded"]);
    expect(done.automationVersion).toBe(2);
    expect(await tagsOf("ew-7")).toContain("got-order.fulfilled");
  });

  test("a revert to the wait's own steps lets a woken run go on, even with the policy 'cancel'", async () => {
    const revertedId = await publishFlow(shop.keys.editor, "Reverted later", paidThenFulfilled());
    await payOrder("ew-8");
    const run = await runInStatus((await runOf(revertedId, "ew-8")).id, ["waiting"]);
    const changed = paidThenFulfilled();
    changed.nodes = changed.nodes.map((n) =>
      n.id === "got" ? { ...n, params: { tag: "v2-{steps.w.event.type}" } } : n,
    );
    await republish(shop.keys.editor, revertedId, changed, "cancel");
    await republish(shop.keys.editor, revertedId, paidThenFulfilled(), "cancel");
    await placeOrder(shop, "ew-8", { email: "ew-8@example.com", status: "fulfilled" });
    await runInStatus(run.id, ["succeeded"]);
    const steps = await stepsOf(run.id);
    expect(steps.map((s) => s.nodeId)).toContain("got");
    expect(steps.find((s) => s.nodeId === "w")!.reason).toContain(
      "version 3 has the same steps as version 1",
    );
  });
});

describe("what earlier legs handed on", () => {
  test("after the wait, a code step's returned value and the waking event are both {steps.…}", async () => {
    const id = await publishFlow(
      shop.keys.editor,
      "Score then wait",
      flow(
        [
          { id: "t", type: "auto.trigger.order_paid" },
          { id: "c", type: "auto.action.code", params: { source: "return { score: 7 };" } },
          { id: "w", type: "auto.control.wait_for_event", params: { event: "order.fulfilled" } },
          {
            id: "tag",
            type: "auto.action.add_tag",
            params: { tag: "score-{steps.c.score}-{steps.w.event.entityId}" },
          },
        ],
        [
          ["t", "c"],
          ["c", "w"],
          ["w", "tag", "received"],
        ],
      ),
    );
    await payOrder("ew-9");
    const run = await runInStatus((await runOf(id, "ew-9")).id, ["waiting"]);
    await placeOrder(shop, "ew-9", { email: "ew-9@example.com", status: "fulfilled" });
    await runInStatus(run.id, ["succeeded"]);
    expect(await tagsOf("ew-9")).toContain("score-7-ew-9");
  });
});

describe("waiting for a customer's reply, told by a webhook", () => {
  const token = crypto.randomBytes(18).toString("base64url");
  let waitingId: string;

  beforeAll(async () => {
    // The email provider's hook: an automation of its own whose trigger records webhook.received.
    await publishFlow(
      shop.keys.editor,
      "Replies hook",
      flow(
        [
          { id: "in", type: "auto.trigger.webhook", params: { token } },
          {
            id: "n",
            type: "auto.action.create_task",
            params: { title: "Reply from {event.payload.body.from}" },
          },
        ],
        [["in", "n"]],
      ),
    );
    waitingId = await publishFlow(
      shop.keys.editor,
      "Until they reply",
      flow(
        [
          { id: "t", type: "auto.trigger.customer_created" },
          {
            id: "w",
            type: "auto.control.wait_for_event",
            params: {
              event: "webhook.received",
              match: { kind: "field", path: "payload.body.from", equals: "{entity.email}" },
              timeoutHours: 120,
            },
          },
          { id: "tag", type: "auto.action.add_tag", params: { tag: "replied" } },
        ],
        [
          ["t", "w"],
          ["w", "tag", "received"],
        ],
      ),
    );
  });

  async function deliver(body: unknown) {
    const res = await hookRoute(
      new Request(`http://test.local/api/hooks/${token}`, {
        method: "POST",
        body: JSON.stringify(body),
        headers: { "content-type": "application/json" },
      }),
      { params: Promise.resolve({ token }) },
    );
    expect(res.status).toBe(202);
  }

  test("a webhook naming the customer's email wakes their run, and one naming another does not", async () => {
    await upsertEntity(
      shop.tenant.id,
      "customer",
      "cu-ann",
      { name: "Ann", email: "Ann@Example.com" },
      "test",
    );
    await upsertEntity(
      shop.tenant.id,
      "customer",
      "cu-bob",
      { name: "Bob", email: "bob@example.com" },
      "test",
    );
    const ann = await runInStatus((await runOf(waitingId, "cu-ann")).id, ["waiting"]);
    const bob = await runInStatus((await runOf(waitingId, "cu-bob")).id, ["waiting"]);

    await deliver({ from: "someone-else@example.com", subject: "Hi" });
    await deliver({ from: "ann@example.com ", subject: "Re: your order" });
    await runInStatus(ann.id, ["succeeded"]);
    expect(await tagsOf("cu-ann")).toContain("replied");
    const woken = await waitOf(ann.id);
    expect(woken.wokenEvent).toMatchObject({
      type: "webhook.received",
      payload: { body: { from: "ann@example.com " } },
    });

    expect((await waitOf(bob.id)).status).toBe("pending");
    expect(await tagsOf("cu-bob")).not.toContain("replied");
  });

  test("an event sent through the API wakes it the same way", async () => {
    await upsertEntity(shop.tenant.id, "customer", "cu-cy", { name: "Cy", email: "cy@example.com" }, "test");
    const cy = await runInStatus((await runOf(waitingId, "cu-cy")).id, ["waiting"]);
    await ingestEvent(shop.tenant.id, {
      type: "webhook.received",
      domain: "webhook",
      payload: { body: { from: "cy@example.com" } },
    });
    await runInStatus(cy.id, ["succeeded"]);
    expect(await tagsOf("cu-cy")).toContain("replied");
  });

  /** A customer whose run is queued, not yet at its wait, while `meanwhile` happens. */
  async function whileQueued(customerId: string, meanwhile: () => Promise<void>) {
    await worker.stop();
    try {
      await upsertEntity(
        shop.tenant.id,
        "customer",
        customerId,
        { name: customerId, email: `${customerId.replace("cu-", "")}@example.com` },
        "test",
      );
      expect((await runOf(waitingId, customerId)).status).toBe("queued");
      await meanwhile();
    } finally {
      await worker.start();
    }
    return runOf(waitingId, customerId);
  }

  const keysOf = (eventId: string) =>
    getDb().execute<{ key: string }>(
      sql`select key from event_match_keys where tenant_id = ${shop.tenant.id} and event_id = ${eventId}`,
    );
  const setRegisteredAt = (at: SQL) =>
    getDb().execute(sql`update event_match_paths set registered_at = ${at}
      where tenant_id = ${shop.tenant.id} and event_type = 'webhook.received'`);

  test("a reply before the run reached its wait is found by its kept key, the span before the path being empty", async () => {
    // The path was kept long ago: no event of the run's span is scanned, only its key looked up.
    await setRegisteredAt(sql`now() - interval '1 day'`);
    const run = await whileQueued("cu-dee", async () => {
      const { event } = await ingestEvent(shop.tenant.id, {
        type: "webhook.received",
        domain: "webhook",
        payload: { body: { from: " DEE@example.com" } },
      });
      expect((await keysOf(event.id)).map((k) => k.key)).toEqual(["f:payload.body.from=dee@example.com"]);
    });
    await runInStatus(run.id, ["succeeded"]);
    expect(await tagsOf("cu-dee")).toContain("replied");
  });

  test("a reply recorded before its path was kept is found by scanning that span only", async () => {
    let eventId = "";
    const run = await whileQueued("cu-eve", async () => {
      ({
        event: { id: eventId },
      } = await ingestEvent(shop.tenant.id, {
        type: "webhook.received",
        domain: "webhook",
        payload: { body: { from: "eve@example.com" } },
      }));
      // As if the event came before the first wait compared the path: it has no key.
      await getDb().execute(sql`delete from event_match_keys where event_id = ${eventId}`);
      await setRegisteredAt(sql`now()`);
    });
    await runInStatus(run.id, ["succeeded"]);
    expect((await waitOf(run.id)).wokenEvent).toMatchObject({ id: eventId });

    // The same without a key, but after the span that is scanned: not found, so nothing is read
    // past the path's registration but by key.
    await setRegisteredAt(sql`now() - interval '1 day'`);
    const unkeyed = await whileQueued("cu-fay", async () => {
      ({
        event: { id: eventId },
      } = await ingestEvent(shop.tenant.id, {
        type: "webhook.received",
        domain: "webhook",
        payload: { body: { from: "fay@example.com" } },
      }));
      await getDb().execute(sql`delete from event_match_keys where event_id = ${eventId}`);
    });
    await runInStatus(unkeyed.id, ["waiting"]);
    expect((await waitOf(unkeyed.id)).status).toBe("pending");
  });

  test("looking back reads the matching events only, however many of the type the shop has", async () => {
    const run = await whileQueued("cu-gus", async () => {
      // 20,000 replies from others since the run began (inserted as recording would, keys and all).
      await getDb().execute(sql`
        with ev as (
          insert into events (tenant_id, id, type, domain, payload)
          select ${shop.tenant.id}, 'bulk-' || g, 'webhook.received', 'webhook',
            jsonb_build_object('body', jsonb_build_object('from', 'other' || g || '@example.com'))
          from generate_series(1, 20000) g
          returning id, created_at, payload
        )
        insert into event_match_keys (tenant_id, event_type, key, created_at, event_id)
        select ${shop.tenant.id}, 'webhook.received', 'f:payload.body.from=' || (payload #>> '{body,from}'), created_at, id
        from ev`);
      await getDb().execute(sql`analyze events; analyze event_match_keys`);
    });
    const wait = await until(
      () => getDb().select().from(automationRunWaits).where(eq(automationRunWaits.runId, run.id)),
      (rows) => rows.length === 1,
      { timeoutMs: 15_000, what: "the run's wait" },
    );
    // Its path was kept long before the run began (the first wait that compared it).
    await setRegisteredAt(sql`now() - interval '1 day'`);
    // Its plan, run and rolled back: every node that reads events reads a handful of rows.
    const plan = await getDb()
      .transaction(async (tx) => {
        const [row] = await tx.execute<{ "QUERY PLAN": { Plan: PlanNode }[] }>(
          sql`explain (analyze, format json) ${lookBackSql([wait[0]!.id])}`,
        );
        throw new Rollback(row!["QUERY PLAN"][0]!.Plan);
      })
      .catch((e: unknown) => {
        if (e instanceof Rollback) return e.plan;
        throw e;
      });
    const read = nodesOf(plan)
      .filter((n) => n["Relation Name"] === "events" || n["Relation Name"] === "event_match_keys")
      .reduce((sum, n) => sum + (n["Actual Rows"] ?? 0) + (n["Rows Removed by Filter"] ?? 0), 0);
    expect(read).toBeLessThan(10);
    expect((await waitOf(run.id)).status).toBe("pending");
  });

  test("a wait is woken once: looking back again finds nothing to wake", async () => {
    const [w] = await getDb()
      .select({ id: automationRunWaits.id })
      .from(automationRunWaits)
      .where(eq(automationRunWaits.automationId, waitingId));
    expect(await lookBackForEvents(getDb(), [w!.id])).toEqual([]);
  });
});

/** A node of Postgres's JSON plan. */
interface PlanNode {
  "Relation Name"?: string;
  "Actual Rows"?: number;
  "Rows Removed by Filter"?: number;
  Plans?: PlanNode[];
}

const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/** Carries a plan out of a transaction it rolls back. */
class Rollback extends Error {
  constructor(readonly plan: PlanNode) {
    super("rolled back");
  }
}
