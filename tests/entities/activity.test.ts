import { beforeAll, describe, expect, test } from "vitest";
import { GET as runRoute } from "@/app/api/v1/runs/[id]/route";
import { GET as runsRoute } from "@/app/api/v1/runs/route";
import type { RunSummary } from "@/lib/automations/runs/summary";
import { entityActivity } from "@/lib/entities/activity";
import { deleteEntity, upsertEntity } from "@/lib/entities/service";
import { call, type ErrorReply } from "@/tests/helpers/fixtures";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { flow, publishFlow, settledRuns } from "@/tests/helpers/flows";
import { workerForFile } from "@/tests/helpers/worker";

let shop: TestShop;
let other: TestShop;
let vipWelcome: string;
let customerNote: string;

interface Page {
  items: RunSummary[];
  nextCursor: string | null;
}

async function runs(query: string, key = shop.keys.viewer) {
  const res = await call<Page & ErrorReply>(runsRoute, { key, path: `/api/v1/runs?${query}` });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.items;
}

const ada = { email: "ada@example.com", name: "Ada Lovelace" };

beforeAll(async () => {
  shop = await createShop();
  other = await createShop();
});
workerForFile();

let setup: Promise<void> | null = null;
/** The shop's flows, records and settled runs, made once (expect.poll only works inside a test). */
const ready = () => (setup ??= seed());

async function seed() {
  //  order_created ──▶ add_tag(vip) ──▶ send_email(ada)
  vipWelcome = await publishFlow(
    shop.keys.editor,
    "VIP welcome",
    flow(
      [
        { id: "t", type: "auto.trigger.order_created" },
        { id: "a", type: "auto.action.add_tag", params: { tag: "vip" } },
        {
          id: "m",
          type: "auto.action.send_email",
          params: {
            purpose: "transactional",
            to: "ada@example.com",
            subject: "Welcome, VIP",
            body: "Thank you.",
          },
        },
      ],
      [
        ["t", "a"],
        ["a", "m"],
      ],
    ),
  );
  //  customer_created ──▶ add_note("Greeted")
  customerNote = await publishFlow(
    shop.keys.editor,
    "Greet customers",
    flow(
      [
        { id: "t", type: "auto.trigger.customer_created" },
        { id: "n", type: "auto.action.add_note", params: { body: "Greeted" } },
      ],
      [["t", "n"]],
    ),
  );
  await upsertEntity(shop.tenant.id, "customer", "cus_ada", ada, "test");
  await upsertEntity(
    shop.tenant.id,
    "order",
    "ord_1022",
    { number: "#1022", status: "paid", total: 65, currency: "EUR", email: ada.email, customerId: "cus_ada" },
    "test",
  );
  await upsertEntity(
    shop.tenant.id,
    "order",
    "ord_gone",
    { number: "#1023", status: "pending", total: 5, currency: "EUR" },
    "test",
  );
  // The other shop has an order #1022 too, with its own run.
  await publishFlow(
    other.keys.editor,
    "VIP welcome",
    flow(
      [
        { id: "t", type: "auto.trigger.order_created" },
        { id: "a", type: "auto.action.add_tag", params: { tag: "vip" } },
      ],
      [["t", "a"]],
    ),
  );
  await upsertEntity(
    other.tenant.id,
    "order",
    "ord_other",
    { number: "#1022", status: "paid", total: 1, currency: "USD", email: ada.email },
    "test",
  );
  await settledRuns(vipWelcome, 2);
  await settledRuns(customerNote, 1);
  await deleteEntity(shop.tenant.id, "order", "ord_gone", "test");
}

describe("runs name their record", () => {
  test("an order, a customer and a deleted record, in the list and on the run", async () => {
    await ready();
    const items = await runs("");
    const label = (entityId: string) => items.find((r) => r.entityId === entityId)?.entityLabel;
    expect(label("ord_1022")).toBe("Order #1022 · €65.00 · ada@example.com");
    expect(label("cus_ada")).toBe("Customer Ada Lovelace (ada@example.com)");
    expect(label("ord_gone")).toBe("order ord_gone (deleted)");

    const run = items.find((r) => r.entityId === "ord_1022")!;
    const detail = await call<RunSummary>(runRoute, {
      key: shop.keys.viewer,
      path: `/api/v1/runs/${run.id}`,
      params: { id: run.id },
    });
    expect(detail.body.entityLabel).toBe("Order #1022 · €65.00 · ada@example.com");
  });
});

describe("the runs list's entity filter", () => {
  test("finds a run by '#1022', '1022', the id, and a customer's email; nothing across shops", async () => {
    await ready();
    for (const search of ["#1022", "1022", "ord_1022", " #1022 "]) {
      const found = await runs(`entityId=${encodeURIComponent(search)}`);
      expect(
        found.map((r) => r.entityId),
        search,
      ).toEqual(["ord_1022"]);
    }
    // An email names the customer and every order placed with it.
    const byEmail = await runs(`entityId=${encodeURIComponent("ADA@example.com")}`);
    expect(byEmail.map((r) => r.entityId).sort()).toEqual(["cus_ada", "ord_1022"]);
    const customersOnly = await runs(`domain=customer&entityId=${encodeURIComponent(ada.email)}`);
    expect(customersOnly.map((r) => r.entityId)).toEqual(["cus_ada"]);
    expect((await runs("entityId=Ada%20Lovelace")).map((r) => r.entityId)).toEqual(["cus_ada"]);
    // A deleted record is still found by its id.
    expect((await runs("entityId=ord_gone")).map((r) => r.entityId)).toEqual(["ord_gone"]);
    expect(await runs("entityId=%239999")).toEqual([]);

    // The other shop's #1022 finds only its own run, and never this shop's.
    const theirs = await runs("entityId=%231022", other.keys.viewer);
    expect(theirs.map((r) => r.entityId)).toEqual(["ord_other"]);
    expect(await runs("entityId=ord_1022", other.keys.viewer)).toEqual([]);
  });
});

describe("a record's Activity", () => {
  test("lists the run, the tag it added and the email it wrote, newest first, each with its run", async () => {
    await ready();
    const [run] = await runs("entityId=ord_1022");
    const activity = await entityActivity(shop.tenant.id, "order", "ord_1022");
    expect(activity.map((a) => a.kind).sort()).toEqual(["email", "run", "tag"]);
    expect(activity.every((a) => a.runId === run!.id && a.automationName === "VIP welcome")).toBe(true);
    expect(activity.find((a) => a.kind === "run")).toMatchObject({ status: "succeeded" });
    expect(activity.find((a) => a.kind === "tag")).toMatchObject({ tag: "vip", added: true });
    expect(activity.find((a) => a.kind === "email")).toMatchObject({
      to: "ada@example.com",
      subject: "Welcome, VIP",
    });
    const times = activity.map((a) => a.at);
    expect([...times].sort().reverse()).toEqual(times);

    const customer = await entityActivity(shop.tenant.id, "customer", "cus_ada");
    expect(customer.find((a) => a.kind === "note")).toMatchObject({ body: "Greeted" });
    // Another shop sees none of it.
    expect(await entityActivity(other.tenant.id, "order", "ord_1022")).toEqual([]);
  });
});
