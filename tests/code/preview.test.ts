import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { previewCode, type CodePreview } from "@/lib/automations/dry-run/code-preview";
import { getDb } from "@/lib/db/client";
import { upsertEntity } from "@/lib/entities/service";
import { createShop, type TestShop } from "@/tests/helpers/shop";

/*
 * "Run on a record": a code step's script run in the sandbox against a real order, with the input a
 * run gives it, reporting what it would do and writing nothing.
 */

let shop: TestShop;
let other: TestShop;

beforeAll(async () => {
  shop = await createShop();
  other = await createShop();
  await upsertEntity(
    shop.tenant.id,
    "order",
    "o-2001",
    { number: "#2001", status: "pending", total: 180, currency: "EUR", email: "ana@example.com" },
    "test",
  );
});

/** Every row a script's actions could write, in the whole database. */
async function effects(): Promise<string> {
  const rows = await getDb().execute(sql`
    select
      (select coalesce(sum(cardinality(tags)), 0) from entities) as tags,
      (select max(updated_at) from entities) as entities_at,
      (select count(*) from entity_notes) as notes,
      (select count(*) from outbox_emails) as emails,
      (select count(*) from action_deliveries) as deliveries,
      (select count(*) from staff_tasks) as tasks,
      (select count(*) from automation_runs) as runs,
      (select count(*) from automation_run_waits) as waits,
      (select count(*) from events) as events`);
  return JSON.stringify(rows[0], (_, v: unknown) => (typeof v === "bigint" ? String(v) : v));
}

const SCRIPT = `// Big paid orders
if (entity.total > 100 && event.type === "order.paid") {
  actions.tag("vip");
  actions.note("Big order " + entity.number);
  actions.email(entity.email, "Thanks", "Your order " + entity.number);
}
actions.task("Check " + entity.number, "2h");
return { score: entity.total > 100 ? 2 : 1, status: entity.status, at: typeof event.at };
`;

function ok(preview: CodePreview): Extract<CodePreview, { ok: true }> {
  if (!preview.ok) throw new Error(`expected the script to run: ${preview.error}`);
  return preview;
}

describe("previewCode", () => {
  test("runs the script against a real order, lists its actions and its return value, writes nothing", async () => {
    const before = await effects();
    const preview = ok(
      await previewCode(shop.tenant.id, {
        source: SCRIPT,
        domain: "order",
        entityId: "o-2001",
        triggerType: "auto.trigger.order_paid",
      }),
    );
    expect(await effects()).toBe(before);

    expect(preview.eventType).toBe("order.paid");
    // The order's status is pinned to the one the trigger fires for, as in a run's first leg.
    expect(preview.result).toEqual({ score: 2, status: "paid", at: "string" });
    expect(preview.record).toMatchObject({ domain: "order", id: "o-2001" });
    expect(preview.actions.map((a) => a.call)).toEqual(["tag", "note", "email", "task"]);
    expect(preview.actions.map((a) => a.sentences[0])).toEqual([
      "Would add tag 'vip' to order #2001.",
      "Would add a note to order #2001: “Big order #2001”",
      "Would email ana@example.com: subject 'Thanks'",
      // The due time in words, in the shop's zone (UTC for a test shop), never an ISO instant.
      expect.stringMatching(
        /^Would create the task 'Check #2001', due \w{3}, \d{1,2} \w{3} \d{4}, \d\d:\d\d UTC\.$/,
      ),
    ]);
    expect(preview.actions[0]!.request).toEqual({ tag: "vip" });
    expect(preview.actions.every((a) => a.error === undefined)).toBe(true);
    expect(preview.ms).toBeGreaterThanOrEqual(0);
    expect(preview.notes.some((n) => n.includes("taken as 'paid'"))).toBe(true);
  });

  test("without a trigger the record is as it is now", async () => {
    const preview = ok(
      await previewCode(shop.tenant.id, {
        source: "return entity.status",
        domain: "order",
        entityId: "o-2001",
      }),
    );
    expect(preview.result).toEqual({ value: "pending" });
    expect(preview.actions).toEqual([]);
  });

  test("a syntax error comes back with its line", async () => {
    const preview = await previewCode(shop.tenant.id, {
      source: "const a = 1;\nconst b = ;\nreturn a;",
      domain: "order",
      entityId: "o-2001",
    });
    expect(preview.ok).toBe(false);
    if (preview.ok) return;
    expect(preview.line).toBe(2);
    expect(preview.error).toMatch(/SyntaxError/);
  });

  test("an exception comes back with its message and line", async () => {
    const preview = await previewCode(shop.tenant.id, {
      source: 'actions.tag("vip");\n\nthrow new Error("no luck");',
      domain: "order",
      entityId: "o-2001",
    });
    expect(preview).toMatchObject({ ok: false, line: 3, error: "no luck (line 3)." });
  });

  test("an action with invalid params fails the script on its line, as in a run", async () => {
    const preview = await previewCode(shop.tenant.id, {
      source: 'actions.tag("vip");\nactions.email("not an address", "Hi", "There");',
      domain: "order",
      entityId: "o-2001",
    });
    expect(preview).toMatchObject({ ok: false, line: 2 });
  });

  test("an action its executor would refuse is listed with the reason", async () => {
    // The order has no customer: the address comes out empty when the template is filled.
    const preview = ok(
      await previewCode(shop.tenant.id, {
        source: 'actions.email("{entity.customer.email}", "Hi", "There");',
        domain: "order",
        entityId: "o-2001",
      }),
    );
    expect(preview.actions).toHaveLength(1);
    expect(preview.actions[0]!.error).toBeTruthy();
    expect(preview.actions[0]!.sentences).toEqual([]);
  });

  test("another shop's record is not found", async () => {
    await expect(
      previewCode(other.tenant.id, { source: "return 1", domain: "order", entityId: "o-2001" }),
    ).rejects.toMatchObject({ status: 404, message: "The order 'o-2001' was not found." });
  });

  test("invalid input is refused", async () => {
    await expect(
      previewCode(shop.tenant.id, { source: "return 1", entityId: "o-2001" }),
    ).rejects.toMatchObject({ status: 422 });
    await expect(
      previewCode(shop.tenant.id, { source: "return 1", triggerType: "auto.action.add_tag" }),
    ).rejects.toMatchObject({ status: 422 });
  });
});
