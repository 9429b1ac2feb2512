import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  SHOPIFY_API_VERSION,
  shopifyClient,
  shopifyGraphql,
  StoreApiError,
  wooRest,
} from "@/lib/connections/store-api";
import type { GuardedRequest, GuardedResponse } from "@/lib/net/guarded-request";

/*
 * Issue 52: the real-store path, without STORE_API_BASE_URL. Shopify's own client
 * (`@shopify/admin-api-client`) builds the Admin API URL and sends through our fetch, which is the
 * outbound guard: a shop whose name resolves to a private or loopback address is refused before
 * anything is sent, and a public one is called exactly at
 * `https://<shop>.myshopify.com/admin/api/<version>/graphql.json` with the token in
 * `X-Shopify-Access-Token`, no redirect followed and a 10 s limit.
 * https://shopify.dev/docs/api/admin-graphql#endpoints, https://shopify.dev/docs/api/usage/authentication
 */

const TOKEN = "shpat_guard_0123456789abcdef0123456789";
const QUERY = "query StoreShop { shop { name } }";

// As in production: no local stand-in, and no host allowed past the guard (the test setup allows
// 127.0.0.1 for the other tests' local servers).
const allowed = process.env.HTTP_ACTION_ALLOW;
beforeAll(() => {
  delete process.env.STORE_API_BASE_URL;
  delete process.env.HTTP_ACTION_ALLOW;
});
afterAll(() => {
  if (allowed !== undefined) process.env.HTTP_ACTION_ALLOW = allowed;
});

/** A resolver that answers `address` for every host, and remembers what it was asked. */
function resolvingTo(address: string) {
  const asked: string[] = [];
  return {
    asked,
    resolve: async (host: string) => {
      asked.push(host);
      return [{ address, family: 4 as const }];
    },
  };
}

async function refusal(promise: Promise<unknown>): Promise<StoreApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StoreApiError);
  return error as StoreApiError;
}

describe("a store host that is not public is refused by the guard", () => {
  for (const [kind, address] of [
    ["private", "10.0.0.7"],
    ["loopback", "127.0.0.1"],
    ["link-local (cloud metadata)", "169.254.169.254"],
  ] as const) {
    test(`Shopify: a shop resolving to a ${kind} address is refused in a sentence, nothing sent`, async () => {
      const dns = resolvingTo(address);
      const error = await refusal(
        shopifyGraphql("inside-shop.myshopify.com", TOKEN, QUERY, {}, { resolve: dns.resolve }),
      );
      // Refused when its address was checked, before a connection was opened.
      expect(dns.asked).toEqual(["inside-shop.myshopify.com"]);
      expect(error.message).toBe(
        "Refused to call https://inside-shop.myshopify.com/…: inside-shop.myshopify.com is not a public address. Tillflow only calls public internet addresses; an administrator can allow a host with HTTP_ACTION_ALLOW.",
      );
      // Permanent: trying again later would be refused the same way.
      expect(error.transient).toBeNull();
      expect(error.message).not.toContain(address);
      expect(error.message).not.toContain(TOKEN);
    });
  }

  test("WooCommerce: a store resolving to a loopback address is refused the same way", async () => {
    const dns = resolvingTo("127.0.0.1");
    const error = await refusal(
      wooRest("shop.example.test", "ck_1:cs_2", "GET", "/orders/1", undefined, { resolve: dns.resolve }),
    );
    expect(dns.asked).toEqual(["shop.example.test"]);
    expect(error.message).toContain("shop.example.test is not a public address");
    expect(error.transient).toBeNull();
  });
});

describe("a public shop is addressed as Shopify documents", () => {
  test("the client's URL is https://<shop>.myshopify.com/admin/api/<pinned version>/graphql.json", () => {
    const { client } = shopifyClient("nordlicht-goods.myshopify.com", TOKEN);
    expect(SHOPIFY_API_VERSION).toBe("2026-10");
    expect(client.getApiUrl()).toBe("https://nordlicht-goods.myshopify.com/admin/api/2026-10/graphql.json");
  });

  test("the guard is asked for exactly that URL, with the token header, no redirects and a time limit", async () => {
    const sent: GuardedRequest[] = [];
    const request = async (r: GuardedRequest): Promise<GuardedResponse> => {
      sent.push(r);
      return {
        status: 200,
        statusText: "OK",
        headers: { "content-type": "application/json; charset=utf-8" },
        body: JSON.stringify({
          data: { shop: { name: "Nordlicht Goods" } },
          extensions: {
            cost: {
              requestedQueryCost: 1,
              actualQueryCost: 1,
              throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 1999, restoreRate: 100 },
            },
          },
        }),
        truncated: false,
        url: r.url,
      };
    };
    const answer = await shopifyGraphql(
      "nordlicht-goods.myshopify.com",
      TOKEN,
      QUERY,
      { first: 1 },
      { request },
    );
    expect(answer).toEqual({ data: { shop: { name: "Nordlicht Goods" } }, waitedMs: 0 });
    expect(sent).toHaveLength(1);
    const [call] = sent;
    expect(call!.url).toBe("https://nordlicht-goods.myshopify.com/admin/api/2026-10/graphql.json");
    expect(call!.method).toBe("POST");
    expect(call!.maxRedirects).toBe(0);
    expect(call!.timeoutMs).toBe(10_000);
    expect(call!.headers["x-shopify-access-token"]).toBe(TOKEN);
    expect(call!.headers["content-type"]).toBe("application/json");
    expect(call!.headers["user-agent"]).toMatch(/^Tillflow-Automations\/1 \| Admin API Client v/);
    expect(JSON.parse(call!.body!)).toEqual({ query: QUERY, variables: { first: 1 } });
  });

  test("a 401 is a sentence in Shopify's words and never the token", async () => {
    const error = await refusal(
      shopifyGraphql(
        "nordlicht-goods.myshopify.com",
        TOKEN,
        QUERY,
        {},
        {
          request: async (r) => ({
            status: 401,
            statusText: "Unauthorized",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({
              errors: "[API] Invalid API key or access token (unrecognized login or wrong password)",
            }),
            truncated: false,
            url: r.url,
          }),
        },
      ),
    );
    expect(error.message).toBe(
      "Shopify refused the call: the token was refused (revoked or mistyped): connect the store again with a new one (Shopify said: [API] Invalid API key or access token (unrecognized login or wrong password)).",
    );
    expect(error.transient).toBeNull();
    expect(error.message).not.toContain(TOKEN);
  });

  test("WooCommerce: https://<store>/wp-json/wc/v3/<path> with Basic auth, no redirects", async () => {
    const sent: GuardedRequest[] = [];
    const answer = await wooRest(
      "shop.example.com",
      "ck_a:cs_b",
      "PUT",
      "/orders/7",
      { status: "on-hold" },
      {
        request: async (r) => {
          sent.push(r);
          return {
            status: 200,
            statusText: "OK",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ id: 7, status: "on-hold" }),
            truncated: false,
            url: r.url,
          };
        },
      },
    );
    expect(answer).toEqual({ id: 7, status: "on-hold" });
    expect(sent[0]!.url).toBe("https://shop.example.com/wp-json/wc/v3/orders/7");
    expect(sent[0]!.maxRedirects).toBe(0);
    expect(sent[0]!.headers.authorization).toBe(`Basic ${Buffer.from("ck_a:cs_b").toString("base64")}`);
    expect(JSON.parse(sent[0]!.body!)).toEqual({ status: "on-hold" });
  });
});
