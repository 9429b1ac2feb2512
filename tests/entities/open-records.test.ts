import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, test, vi } from "vitest";
import { GET, PUT } from "@/app/api/v1/entities/[domain]/[id]/route";
import { GET as getRunRoute } from "@/app/api/v1/runs/[id]/route";
import { listAttributePathsAction } from "@/lib/actions/entities/list-attribute-paths";
import { getDb } from "@/lib/db/client";
import { entities, events } from "@/lib/db/schema";
import { attributePaths } from "@/lib/entities/attribute-paths";
import { getEntity } from "@/lib/entities/service";
import { call, type ErrorReply } from "@/tests/helpers/fixtures";
import { flow, publishFlow, settledRuns } from "@/tests/helpers/flows";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { workerForFile } from "@/tests/helpers/worker";

/*
 * SPEC §2 "Open records": a record keeps its known fields validated and everything else its
 * source sent under `attributes` (≤ 64 KB), which conditions reach by path and the field picker
 * offers from the shop's own latest records.
 */

// The server action reads its caller from the request headers; here they carry an API key.
const request = vi.hoisted(() => ({ headers: new Headers() }));
vi.mock("next/headers", () => ({ headers: async () => request.headers }));

let shop: TestShop;
let other: TestShop;

beforeAll(async () => {
  shop = await createShop();
  other = await createShop();
});
workerForFile();

const order = {
  number: "#2001",
  status: "paid",
  total: 80,
  currency: "EUR",
  email: "ada@example.com",
  lineItems: [{ sku: "MUG", title: "Mug", quantity: 1, price: 80, vendor: "Potter & Co", productId: "p-1" }],
  shippingAddress: {
    name: "Ada Lovelace",
    city: "Berlin",
    country: "Germany",
    countryCode: "DE",
    zip: "10115",
  },
  discountCodes: ["WELCOME10"],
  financialStatus: "paid",
  fulfillmentStatus: "unfulfilled",
  sourceName: "web",
  attributes: {
    note_attributes: [{ name: "gift_message", value: "Happy birthday" }],
    landing_site: "/sale",
    buyer_accepts_marketing: false,
  },
};

type Reply = Record<string, unknown> & ErrorReply;

function put(id: string, body: unknown, key = shop.keys.editor) {
  return call<Reply>(PUT, { method: "PUT", key, body, params: { domain: "order", id } });
}

describe("PUT /api/v1/entities/order/:id with open fields", () => {
  test("keeps the shipping address, the new known fields and the attributes, and GET returns them", async () => {
    const created = await put("open-1", order);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const got = await call<Reply>(GET, { key: shop.keys.viewer, params: { domain: "order", id: "open-1" } });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({
      shippingAddress: order.shippingAddress,
      discountCodes: ["WELCOME10"],
      financialStatus: "paid",
      fulfillmentStatus: "unfulfilled",
      sourceName: "web",
      lineItems: [order.lineItems[0]],
      attributes: order.attributes,
    });
  });

  test("refuses attributes over 64 KB with a 422 that says how big they are, and stores nothing", async () => {
    const attributes = { blob: "x".repeat(70 * 1024 - 20) };
    const res = await put("open-big", { ...order, attributes });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe("invalid");
    expect(res.body.error.message).toBe(
      "The order is invalid: attributes: must be at most 64 KB of JSON (this is 70 KB).",
    );
    const stored = await getDb()
      .select({ id: entities.id })
      .from(entities)
      .where(and(eq(entities.tenantId, shop.tenant.id), eq(entities.id, "open-big")));
    expect(stored).toEqual([]);
    const emitted = await getDb()
      .select({ id: events.id })
      .from(events)
      .where(and(eq(events.tenantId, shop.tenant.id), eq(events.entityId, "open-big")));
    expect(emitted).toEqual([]);
  });

  test("a big attributes body does not replace what an existing record keeps", async () => {
    await put("open-keep", order);
    const res = await put("open-keep", { ...order, attributes: { blob: "é".repeat(40_000) } });
    expect(res.status).toBe(422);
    expect((await getEntity(shop.tenant.id, "order", "open-keep")).attributes).toEqual(order.attributes);
  });

  test("still names a misspelt known field", async () => {
    const res = await put("open-typo", { ...order, shippingAdress: { city: "Berlin" } });
    expect(res.status).toBe(422);
    expect(res.body.error.message).toMatch(/shippingAdress/);
  });
});

describe("conditions on open fields decide their branches", () => {
  //  order_created ──▶ shippingAddress.countryCode = DE ──true──▶ add_tag(ships-de)
  //                                                    └─false─▶ add_tag(ships-abroad)
  //  order_created ──▶ attributes.note_attributes.0.value contains birthday ──true──▶ add_tag(gift)
  //                                                                         └─false─▶ add_tag(no-gift)
  test("a shipping country and a note attribute send each order down its own branch", async () => {
    const country = await publishFlow(
      shop.keys.editor,
      "German orders",
      flow(
        [
          { id: "t", type: "auto.trigger.order_created" },
          {
            id: "de",
            type: "auto.condition.field",
            params: { path: "shippingAddress.countryCode", operator: "eq", value: "DE" },
          },
          { id: "yes", type: "auto.action.add_tag", params: { tag: "ships-de" } },
          { id: "no", type: "auto.action.add_tag", params: { tag: "ships-abroad" } },
        ],
        [
          ["t", "de"],
          ["de", "yes", "true"],
          ["de", "no", "false"],
        ],
      ),
    );
    const gift = await publishFlow(
      shop.keys.editor,
      "Gift notes",
      flow(
        [
          { id: "t", type: "auto.trigger.order_created" },
          {
            id: "note",
            type: "auto.condition.field",
            params: { path: "attributes.note_attributes.0.value", operator: "contains", value: "birthday" },
          },
          { id: "yes", type: "auto.action.add_tag", params: { tag: "gift" } },
          { id: "no", type: "auto.action.add_tag", params: { tag: "no-gift" } },
        ],
        [
          ["t", "note"],
          ["note", "yes", "true"],
          ["note", "no", "false"],
        ],
      ),
    );

    expect((await put("branch-de", order)).status).toBe(201);
    const abroad = {
      ...order,
      shippingAddress: { ...order.shippingAddress, country: "France", countryCode: "FR" },
      attributes: { note_attributes: [{ name: "gift_message", value: "No message" }] },
    };
    expect((await put("branch-fr", abroad)).status).toBe(201);

    const countryRuns = await settledRuns(country, 2);
    const giftRuns = await settledRuns(gift, 2);
    expect([...countryRuns, ...giftRuns].map((r) => r.status)).toEqual([
      "succeeded",
      "succeeded",
      "succeeded",
      "succeeded",
    ]);
    expect((await getEntity(shop.tenant.id, "order", "branch-de")).tags.sort()).toEqual(["gift", "ships-de"]);
    expect((await getEntity(shop.tenant.id, "order", "branch-fr")).tags.sort()).toEqual([
      "no-gift",
      "ships-abroad",
    ]);

    // The run page's steps: the condition, then the branch it took.
    const detail = await call<{ steps: { nodeId: string; status: string; output: unknown }[] }>(getRunRoute, {
      key: shop.keys.viewer,
      params: { id: giftRuns[0]!.id },
    });
    expect(detail.body.steps.map((s) => [s.nodeId, s.status])).toEqual([
      ["note", "success"],
      ["yes", "success"],
    ]);
  });
});

describe("attribute paths for the field picker", () => {
  test("lists this shop's attribute paths with their types, counts and samples", async () => {
    const { paths, scanned } = await attributePaths(shop.tenant.id, "order");
    expect(scanned).toBeGreaterThanOrEqual(3);
    const byPath = new Map(paths.map((p) => [p.path, p]));
    // Note attributes are offered by name (issue 49), not by position.
    const named = "attributes.note_attributes[name=gift_message].value";
    expect(byPath.get(named)).toMatchObject({ type: "text" });
    expect(byPath.get(named)!.records).toBeGreaterThanOrEqual(3);
    expect(byPath.has("attributes.note_attributes.0.value")).toBe(false);
    expect(byPath.get("attributes.landing_site")).toMatchObject({ type: "text", sample: "/sale" });
    expect(byPath.get("attributes.buyer_accepts_marketing")).toMatchObject({
      type: "boolean",
      sample: "false",
    });
    expect(byPath.has("attributes.blob")).toBe(false);
  });

  test("another shop sees none of them, through the function and the server action", async () => {
    expect(await attributePaths(other.tenant.id, "order")).toEqual({ paths: [], scanned: 0 });
    request.headers = new Headers({ authorization: `Bearer ${other.keys.admin}` });
    expect(await listAttributePathsAction({ domain: "order" })).toEqual({
      ok: true,
      data: { paths: [], scanned: 0 },
    });
    // This shop's viewer may read its own.
    request.headers = new Headers({ authorization: `Bearer ${shop.keys.viewer}` });
    const own = await listAttributePathsAction({ domain: "order" });
    expect(own.ok && own.data.paths.some((p) => p.path === "attributes.landing_site")).toBe(true);
  });

  test("an unknown kind of record is not found, and one without stored records has no paths", async () => {
    request.headers = new Headers({ authorization: `Bearer ${shop.keys.viewer}` });
    expect(await listAttributePathsAction({ domain: "nope" })).toMatchObject({
      ok: false,
      code: "not_found",
    });
    expect(await listAttributePathsAction({ domain: "webhook" })).toEqual({
      ok: true,
      data: { paths: [], scanned: 0 },
    });
  });
});
