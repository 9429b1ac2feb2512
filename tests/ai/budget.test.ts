import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { POST as buildRoute } from "@/app/api/v1/ai/build/route";
import { tryAi } from "@/lib/automations/dry-run/ai-try";
import { RateLimitedError } from "@/lib/rate-limit/api";
import { startStubModel, type StubModel } from "@/tests/helpers/ai-stub";
import type { ErrorReply } from "@/tests/helpers/fixtures";
import { createShop, type TestShop } from "@/tests/helpers/shop";

/*
 * The per-shop hourly budget of model calls made while building (AI_CALLS_PER_SHOP_PER_HOUR): the
 * AI builder's calls (up to 2 a request) and "Try with the model" count, calls not requests; past
 * the budget a 429 with Retry-After, and another shop is unaffected.
 */

//  order_paid ──▶ add_tag(vip)
const VALID = {
  name: "Tag paid orders",
  trigger: { type: "auto.trigger.order_paid" },
  steps: [{ kind: "action", type: "auto.action.add_tag", params: { tag: "vip" } }],
};
//  order_paid ──▶ Wait 40 days       (over the 30-day limit: the builder asks again)
const TOO_LONG = {
  ...VALID,
  steps: [{ kind: "wait", type: "auto.control.wait", params: { duration: 40, unit: "days" } }],
};

let shop: TestShop;
let other: TestShop;
let model: StubModel;
/** The stub's next answers, in order; VALID once they run out. */
const queue: string[] = [];

beforeAll(async () => {
  [shop, other] = [await createShop(), await createShop()];
  model = await startStubModel(() => queue.shift() ?? JSON.stringify(VALID));
  process.env.AI_BASE_URL = model.baseURL;
  process.env.AI_MODEL = "stub";
  process.env.AI_CALLS_PER_SHOP_PER_HOUR = "3";
});

afterAll(async () => {
  delete process.env.AI_BASE_URL;
  delete process.env.AI_MODEL;
  delete process.env.AI_CALLS_PER_SHOP_PER_HOUR;
  await model.close();
});

async function build(of: TestShop) {
  const req = new Request("http://test.local/api/v1/ai/build", {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${of.keys.editor}` },
    body: JSON.stringify({ prompt: "Tag paid orders as vip." }),
  });
  const res = await buildRoute(req, { params: Promise.resolve({}) as Promise<never> });
  return {
    status: res.status,
    retryAfter: res.headers.get("retry-after"),
    body: (await res.json()) as ErrorReply,
  };
}

describe("the AI budget per shop and hour", () => {
  test("calls are counted, not requests: the (N+1)th call is a 429 with Retry-After; another shop is unaffected", async () => {
    // A first answer that is not a valid flow: the builder asks again, 2 calls for 1 request.
    queue.push(JSON.stringify(TOO_LONG), JSON.stringify(VALID));
    expect((await build(shop)).status).toBe(200);
    expect(model.requests).toHaveLength(2);
    // The third call of the hour: "Try with the model" spends from the same budget.
    const tried = await tryAi(shop.tenant.id, {
      params: { task: "write", prompt: "Say thanks", maxWords: 10 },
    });
    expect(tried.prompt).toBe("Say thanks");
    expect(model.requests).toHaveLength(3);

    const refused = await build(shop);
    expect(refused.status).toBe(429);
    const seconds = Number(refused.retryAfter);
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(3600);
    expect(refused.body.error.message).toMatch(
      /^This shop has used all 3 of its AI questions for this hour, so the model was not asked; the AI builder and Try with the model can ask again in \d+ minutes? \(at \d\d:00 UTC\)\.$/,
    );
    await expect(
      tryAi(shop.tenant.id, { params: { task: "write", prompt: "Again" } }),
    ).rejects.toBeInstanceOf(RateLimitedError);
    // The model was not asked past the budget.
    expect(model.requests).toHaveLength(3);

    // Another shop has its own budget.
    expect((await build(other)).status).toBe(200);
    expect(model.requests).toHaveLength(4);
  });
});
