import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { GET as runsRoute } from "@/app/api/v1/runs/route";
import { shortRunId } from "@/lib/automations/runs/short-id";
import type { RunSummary } from "@/lib/automations/runs/summary";
import { getDb } from "@/lib/db/client";
import { call, type ErrorReply } from "@/tests/helpers/fixtures";
import { flow, publishFlow } from "@/tests/helpers/flows";
import { createShop, type TestShop } from "@/tests/helpers/shop";

/**
 * Finding a run by the id people see: its short id (the random end of the id, since every run of a
 * month starts with the same 12 characters) or its full id, in the shop that owns it only.
 */

let shop: TestShop;
let other: TestShop;
/** Runs made in one statement: the same now(), so the same month and the same millisecond. */
let ids: string[];
let othersId: string;

interface Page {
  items: RunSummary[];
  nextCursor: string | null;
}

async function runs(query: string, key = shop.keys.viewer) {
  return call<Page & ErrorReply>(runsRoute, { key, path: `/api/v1/runs?${query}` });
}

//  order_created ──▶ add_tag(seen)
const tagFlow = flow(
  [
    { id: "t", type: "auto.trigger.order_created" },
    { id: "a", type: "auto.action.add_tag", params: { tag: "seen" } },
  ],
  [["t", "a"]],
);

async function insertRuns(tenantId: string, automationId: string, count: number): Promise<string[]> {
  const rows = await getDb().execute<{ id: string }>(sql`
    insert into automation_runs (tenant_id, automation_id, automation_version, status, event_id, trigger_node_id,
      event, domain, entity_id)
    select ${tenantId}::uuid, ${automationId}::uuid, 1, 'succeeded', 'id-search-' || g, 't',
      '{"id":"x","type":"order.created","domain":"order","entityId":"o","entityStatus":null,"payload":{},"occurredAt":"2026-01-01T00:00:00Z"}'::jsonb,
      'order', 'o' from generate_series(1, ${count}) g
    returning id`);
  return rows.map((row) => row.id);
}

beforeAll(async () => {
  shop = await createShop();
  other = await createShop();
  ids = await insertRuns(shop.tenant.id, await publishFlow(shop.keys.editor, "Tag", tagFlow), 20);
  othersId = (await insertRuns(other.tenant.id, await publishFlow(other.keys.editor, "Tag", tagFlow), 1))[0]!;
});

describe("a run's short id", () => {
  test("tells apart runs made in the same month and the same moment, where the start of the id does not", () => {
    expect(new Set(ids.map((id) => id.slice(0, 8))).size).toBe(1);
    expect(new Set(ids.map(shortRunId)).size).toBe(ids.length);
  });
});

describe("GET /api/v1/runs?run=", () => {
  test("finds exactly one run by its short id, in any case, and by its full id", async () => {
    const target = ids[7]!;
    for (const run of [
      shortRunId(target),
      shortRunId(target).toUpperCase(),
      target,
      ` ${target.toUpperCase()} `,
    ]) {
      const res = await runs(`run=${encodeURIComponent(run)}`);
      expect(res.status, run).toBe(200);
      expect(
        res.body.items.map((r) => r.id),
        run,
      ).toEqual([target]);
    }
  });

  test("combines with the other filters", async () => {
    const target = ids[3]!;
    expect((await runs(`run=${shortRunId(target)}&status=succeeded`)).body.items.map((r) => r.id)).toEqual([
      target,
    ]);
    expect((await runs(`run=${shortRunId(target)}&status=failed`)).body.items).toEqual([]);
  });

  test("never finds another shop's run, by short id or full id", async () => {
    expect((await runs(`run=${shortRunId(othersId)}`)).body.items).toEqual([]);
    expect((await runs(`run=${othersId}`)).body.items).toEqual([]);
    expect((await runs(`run=${othersId}`, other.keys.viewer)).body.items.map((r) => r.id)).toEqual([
      othersId,
    ]);
  });

  test("refuses what is not a run id with a sentence that says what to type", async () => {
    for (const run of ["abc", "not-a-run", "7111f10e-12", "100%25", "'; drop table automation_runs; --"]) {
      const res = await runs(`run=${encodeURIComponent(run)}`);
      expect(res.status, run).toBe(422);
      expect(res.body.error.message, run).toContain(
        "run: must be a run's short id as the Run column shows it",
      );
    }
  });
});
