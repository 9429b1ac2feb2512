import { beforeAll, expect, test } from "vitest";
import { GET as getEntity, PUT as putEntity } from "@/app/api/v1/entities/[domain]/[id]/route";
import { getAuth } from "@/lib/auth/auth";
import { addMember } from "@/lib/auth/users";
import { type ErrorReply } from "@/tests/helpers/fixtures";
import { createShop, type TestShop } from "@/tests/helpers/shop";

// A write to /api/v1 made with the session cookie must come from the app's own origin (SPEC §2
// "Trust at the edges"): another site's page can make a browser send the cookie, never our Origin.

let shop: TestShop;
let cookie: string;

beforeAll(async () => {
  shop = await createShop();
  await addMember(shop.tenant.id, { email: "origin@shop.test", role: "editor", password: "password-1" });
  const res = await getAuth().api.signInEmail({
    body: { email: "origin@shop.test", password: "password-1" },
    asResponse: true,
  });
  cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
});

const order = { number: "#1", status: "pending", total: 5, currency: "EUR" };

function put(url: string, headers: Record<string, string>, id = "o-1") {
  return putEntity(
    new Request(url, {
      method: "PUT",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(order),
    }),
    { params: Promise.resolve({ domain: "order", id }) },
  );
}

/** A read with the cookie and no Origin. */
const read = (id: string) =>
  getEntity(new Request(`http://localhost:3000/api/v1/entities/order/${id}`, { headers: { cookie } }), {
    params: Promise.resolve({ domain: "order", id }),
  });

test("a cookie write with no Origin, or another site's, is a 403 that says why; nothing is written", async () => {
  for (const origin of [null, "https://evil.example", "http://localhost:3000.evil.example"]) {
    const res = await put("http://localhost:3000/api/v1/entities/order/o-1", {
      cookie,
      host: "localhost:3000",
      ...(origin ? { origin } : {}),
    });
    expect(res.status).toBe(403);
    expect(((await res.json()) as ErrorReply).error.message).toMatch(
      /^A change made with a signed-in browser session must come from Tillflow's own pages/,
    );
  }
  expect((await read("o-1")).status).toBe(404);
});

test("a cookie write from the app's own origin goes through: its configured origin or the Host it was sent to", async () => {
  const configured = await put(
    "http://localhost:3000/api/v1/entities/order/o-2",
    {
      cookie,
      host: "localhost:3000",
      origin: "http://localhost:3000",
    },
    "o-2",
  );
  expect(configured.status).toBe(201);
  const byHost = await put(
    "http://shop.example:8080/api/v1/entities/order/o-3",
    {
      cookie,
      host: "shop.example:8080",
      origin: "http://shop.example:8080",
    },
    "o-3",
  );
  expect(byHost.status).toBe(201);
});

test("API-key writes need no Origin, and cookie reads are not affected", async () => {
  const byKey = await put(
    "http://localhost:3000/api/v1/entities/order/o-4",
    {
      authorization: `Bearer ${shop.keys.editor}`,
      origin: "https://elsewhere.example",
    },
    "o-4",
  );
  expect(byKey.status).toBe(201);
  const noOrigin = await put(
    "http://localhost:3000/api/v1/entities/order/o-5",
    {
      authorization: `Bearer ${shop.keys.editor}`,
    },
    "o-5",
  );
  expect(noOrigin.status).toBe(201);
  expect((await read("o-4")).status).toBe(200);
});
