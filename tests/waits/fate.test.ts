import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { POST as pauseRoute } from "@/app/api/v1/automations/[id]/pause/route";
import { executeRun, resumeWait } from "@/lib/automations/engine/pipeline";
import { getRun } from "@/lib/automations/runs/detail";
import { listRuns } from "@/lib/automations/runs/history";
import { fateTime, waitFates } from "@/lib/automations/waits/fate";
import { listWaiting } from "@/lib/automations/waits/waits";
import { getDb } from "@/lib/db/client";
import { automationRuns, automationRunWaits } from "@/lib/db/schema";
import { call } from "@/tests/helpers/fixtures";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { publishFlow, republish, waitThenTag } from "@/tests/helpers/flows";
import { placeOrder } from "@/tests/helpers/orders";

let shop: TestShop;
let other: TestShop;

beforeAll(async () => {
  shop = await createShop();
  other = await createShop();
});

/** Publishes a 2-day wait flow and parks one run at it (first leg run here, no worker). */
async function parked(s: TestShop, name: string, entityId: string) {
  const id = await publishFlow(s.keys.editor, name, waitThenTag(name));
  await placeOrder(s, entityId);
  const [run] = await getDb()
    .select()
    .from(automationRuns)
    .where(and(eq(automationRuns.automationId, id), eq(automationRuns.entityId, entityId)));
  await executeRun(run!.id);
  const [wait] = await getDb()
    .select()
    .from(automationRunWaits)
    .where(and(eq(automationRunWaits.runId, run!.id), eq(automationRunWaits.status, "pending")));
  return { id, runId: run!.id, wait: wait! };
}

describe("waitFates: what a pending wait will do when it wakes", () => {
  test("a paused automation's wait is doomed, with the paused sentence, in runs, run and Waiting", async () => {
    const p = await parked(shop, "fate-paused", "f-1");
    expect((await waitFates(shop.tenant.id, [p.wait])).get(p.wait.id)).toEqual({ continues: true });
    await call(pauseRoute, { method: "POST", key: shop.keys.editor, params: { id: p.id } });
    const reason = `Will be cancelled when it wakes: the automation is paused — turn it back on before ${fateTime(p.wait.resumeAt, "UTC")} to keep it.`;
    expect((await waitFates(shop.tenant.id, [p.wait])).get(p.wait.id)).toEqual({ continues: false, reason });

    const runs = await listRuns(shop.tenant.id, { automationId: p.id });
    expect(runs.items[0]).toMatchObject({ status: "waiting", fate: { continues: false, reason } });
    const run = await getRun(shop.tenant.id, p.runId);
    expect(run.fate).toEqual({ continues: false, reason });
    expect(run.waits[0]).toMatchObject({ fate: { continues: false, reason }, cancelledAtWake: null });
    const waiting = await listWaiting(shop.tenant.id, p.id);
    expect(waiting.items[0]!.fate).toEqual({ continues: false, reason });
  });

  test("a wait cancelled at wake reads as such (not Resumed), with the engine's reason", async () => {
    const p = await parked(shop, "fate-woke", "f-6");
    await call(pauseRoute, { method: "POST", key: shop.keys.editor, params: { id: p.id } });
    expect(await resumeWait(p.wait.id)).toBe("skipped");
    const run = await getRun(shop.tenant.id, p.runId);
    expect(run).toMatchObject({ status: "cancelled", fate: null });
    expect(run.waits[0]).toMatchObject({
      status: "resumed",
      fate: null,
      cancelledAtWake: "The automation was paused while this run was waiting.",
    });
  });

  test("v2 with policy cancel → doomed; finish_on_started_version → continues on v1", async () => {
    const c = await parked(shop, "fate-cancel", "f-2");
    await republish(shop.keys.editor, c.id, waitThenTag("changed"), "cancel");
    expect((await waitFates(shop.tenant.id, [c.wait])).get(c.wait.id)).toEqual({
      continues: false,
      reason:
        "Will be cancelled when it wakes: the automation was edited (version 2) and its in-flight policy is 'cancel'.",
    });

    const f = await parked(shop, "fate-finish", "f-3");
    await republish(shop.keys.editor, f.id, waitThenTag("changed"), "finish_on_started_version");
    expect((await waitFates(shop.tenant.id, [f.wait])).get(f.wait.id)).toEqual({
      continues: true,
      note: "Will finish on version 1, the version it started on.",
    });
  });

  test("a revert (v3 has v1's steps) continues even with policy cancel", async () => {
    const r = await parked(shop, "fate-revert", "f-4");
    await republish(shop.keys.editor, r.id, waitThenTag("changed"), "cancel");
    await republish(shop.keys.editor, r.id, waitThenTag("fate-revert"), "cancel");
    expect((await waitFates(shop.tenant.id, [r.wait])).get(r.wait.id)).toEqual({
      continues: true,
      note: "Will carry on: version 3 has the same steps as version 1.",
    });
  });

  test("a run that moves to the latest version when it wakes is drawn on that version, before and after", async () => {
    const m = await parked(shop, "fate-move", "f-7");
    const before = await getRun(shop.tenant.id, m.runId);
    expect(before).toMatchObject({ automationVersion: 1, graphVersion: 1 });
    expect(before.graph?.nodes.map((n) => n.id)).toEqual(["t", "w", "tag"]);

    // Version 2 puts a note between the wait and the tag; waiting runs move to it.
    // t ──▶ w ──▶ note ──▶ tag
    const v2 = {
      nodes: [
        { id: "t", type: "auto.trigger.order_created", params: {} },
        { id: "w", type: "auto.control.wait", params: { duration: 2, unit: "days" } },
        { id: "note", type: "auto.action.add_note", params: { body: "Moved" } },
        { id: "tag", type: "auto.action.add_tag", params: { tag: "fate-move" } },
      ],
      edges: [
        { id: "t-w", source: "t", sourceHandle: "out", target: "w" },
        { id: "w-note", source: "w", sourceHandle: "out", target: "note" },
        { id: "note-tag", source: "note", sourceHandle: "out", target: "tag" },
      ],
    };
    await republish(shop.keys.editor, m.id, v2, "move_to_latest");
    const waiting = await getRun(shop.tenant.id, m.runId);
    // Still on version 1 until it wakes, but the page draws the graph it will follow: version 2.
    expect(waiting).toMatchObject({ status: "waiting", automationVersion: 1, graphVersion: 2 });
    expect(waiting.graph?.nodes.map((n) => n.id)).toEqual(["t", "w", "note", "tag"]);
    expect(waiting.fate).toEqual({ continues: true, note: "Will move to version 2 when it wakes." });
    // The path so far stays where it is: the wait it sits at is on both versions.
    expect(waiting.nodeStatuses).toMatchObject({ w: "waiting" });

    // Woken, it is on version 2, and drawn so.
    expect(await resumeWait(m.wait.id)).not.toBe("skipped");
    const woke = await getRun(shop.tenant.id, m.runId);
    expect(woke).toMatchObject({ automationVersion: 2, graphVersion: 2 });
    expect(woke.graph?.nodes.map((n) => n.id)).toEqual(["t", "w", "note", "tag"]);

    // With "finish on the version it started on" the page keeps drawing that version.
    const f = await parked(shop, "fate-stay", "f-8");
    await republish(shop.keys.editor, f.id, v2, "finish_on_started_version");
    const stays = await getRun(shop.tenant.id, f.runId);
    expect(stays).toMatchObject({ automationVersion: 1, graphVersion: 1 });
    expect(stays.graph?.nodes.map((n) => n.id)).toEqual(["t", "w", "tag"]);
  });

  test("another shop's waits are not readable", async () => {
    const theirs = await parked(other, "fate-theirs", "f-5");
    expect((await waitFates(shop.tenant.id, [theirs.wait])).size).toBe(0);
    expect((await waitFates(other.tenant.id, [theirs.wait])).get(theirs.wait.id)).toEqual({
      continues: true,
    });
  });
});
