import { isAPIError } from "better-auth/api";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { getAuth } from "@/lib/auth/auth";
import { admitSignIn, FREE_FAILURES, pruneForgottenStreaks, waitWords } from "@/lib/auth/sign-in-limits";
import { addMember } from "@/lib/auth/users";
import { getDb } from "@/lib/db/client";
import { rateLimitWindows } from "@/lib/db/schema";
import {
  addressGroup,
  CLIENT_ADDRESS_HEADER,
  clientAddressOf,
  markClientAddressHeaderSet,
} from "@/lib/net/client-address";
import { createShop } from "@/tests/helpers/shop";
import { startWebServer, type WebServer } from "@/tests/helpers/web-server";

// Sign-in limits (SPEC §2 "Trust at the edges"): per account, growing delays after 5 failures;
// per client address, where the address is the socket's unless a trusted proxy forwarded it.

const PASSWORD = "right-password-1";
let tenantId: string;

beforeAll(async () => {
  tenantId = (await createShop()).tenant.id;
});

async function member(email: string) {
  await addMember(tenantId, { email, role: "editor", password: PASSWORD });
  return email;
}

describe("per account", () => {
  // From now: a prune (below) run by another attempt must not find these streaks a day old.
  const start = Date.now();
  const at = (seconds: number) => new Date(start + seconds * 1000);
  const none = new Headers();

  test("after 5 failures each attempt waits longer: 30 s, then 1 min, 2 min, … at most 15 min", async () => {
    const email = "delays@shop.test";
    for (let i = 0; i < FREE_FAILURES; i++) expect(await admitSignIn(email, none, at(0))).toBeNull();
    expect(await admitSignIn(email, none, at(1))).toEqual({
      message: "Too many failed sign-ins for this account. Try again in 29 seconds.",
      retryAfterSeconds: 29,
    });
    // 30 s after the fifth, a sixth may try; after it the wait is a minute.
    expect(await admitSignIn(email, none, at(30))).toBeNull();
    expect((await admitSignIn(email, none, at(30)))?.message).toBe(
      "Too many failed sign-ins for this account. Try again in 1 minute.",
    );
    expect(await admitSignIn(email, none, at(90))).toBeNull();
    expect((await admitSignIn(email, none, at(90)))?.message).toBe(
      "Too many failed sign-ins for this account. Try again in 2 minutes.",
    );
    let t = 90;
    for (const wait of [120, 240, 480, 900, 900]) {
      t += wait;
      expect(await admitSignIn(email, none, at(t - 1))).not.toBeNull();
      expect(await admitSignIn(email, none, at(t))).toBeNull();
    }
    // The same email in other letters is the same account.
    expect((await admitSignIn(" Delays@Shop.TEST", none, at(t + 1)))?.retryAfterSeconds).toBe(899);
  });

  test("the form's sign-in (auth.api) is refused with the sentence, even with the right password, and a success resets", async () => {
    const email = await member("form@shop.test");
    const signIn = (password: string) => getAuth().api.signInEmail({ body: { email, password } });
    for (let i = 0; i < 4; i++)
      await expect(signIn("wrong-password")).rejects.toMatchObject({ statusCode: 401 });
    // Four failures, then the right password: the count starts again.
    await expect(signIn(PASSWORD)).resolves.toMatchObject({ user: { email } });
    for (let i = 0; i < 5; i++)
      await expect(signIn("wrong-password")).rejects.toMatchObject({ statusCode: 401 });
    const refused = await signIn(PASSWORD).catch((error: unknown) => error);
    expect(isAPIError(refused) && refused.statusCode).toBe(429);
    // What the sign-in form shows (lib/actions/auth/sign-in.ts shows the error's message).
    expect(isAPIError(refused) && refused.body?.message).toMatch(
      /^Too many failed sign-ins for this account\. Try again in (29|30) seconds\.$/,
    );
  });

  test("parallel guesses cannot all pass the check before the first failure lands", async () => {
    const email = await member("parallel@shop.test");
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        getAuth()
          .api.signInEmail({ body: { email, password: "wrong-password" } })
          .catch((error: unknown) => (isAPIError(error) ? error.statusCode : 0)),
      ),
    );
    expect(results.filter((status) => status === 401)).toHaveLength(5);
    expect(results.filter((status) => status === 429)).toHaveLength(15);
  });

  test("a streak quiet for a day is forgotten, and pruned", async () => {
    const email = "quiet@shop.test";
    const dayAgo = new Date(start - 25 * 3600_000);
    for (let i = 0; i < FREE_FAILURES; i++) await admitSignIn(email, none, dayAgo);
    expect(await admitSignIn(email, none, new Date(dayAgo.getTime() + 1000))).not.toBeNull();
    const key = "sign-in-account:quiet@shop.test";
    const rows = () => getDb().select().from(rateLimitWindows).where(eq(rateLimitWindows.key, key));
    expect(await rows()).toHaveLength(1);
    await pruneForgottenStreaks(new Date(start));
    expect(await rows()).toHaveLength(0);
    // And a streak that is a day old counts from one again rather than waiting.
    for (let i = 0; i < FREE_FAILURES; i++) await admitSignIn(email, none, dayAgo);
    expect(await admitSignIn(email, none, at(0))).toBeNull();
  });

  test("waits are worded in seconds under a minute, else whole minutes", () => {
    expect([1, 45, 60, 61, 900].map(waitWords)).toEqual([
      "1 second",
      "45 seconds",
      "1 minute",
      "2 minutes",
      "15 minutes",
    ]);
  });
});

describe("addresses that signed in before", () => {
  // As the production server does: the socket's address reaches the hooks in this header.
  const from = (address: string) => new Headers({ [CLIENT_ADDRESS_HEADER]: address });
  const signIn = (email: string, password: string, address: string) =>
    getAuth().api.signInEmail({ body: { email, password }, headers: from(address) });
  const status = (attempt: Promise<unknown>) =>
    attempt.then(
      () => 200,
      (error: unknown) => (isAPIError(error) ? error.statusCode : 0),
    );

  beforeAll(() => markClientAddressHeaderSet());

  test("an account locked by failures from elsewhere still signs in from an address it signed in from before", async () => {
    const email = await member("owner@shop.test");
    const home = "198.51.100.7";
    const attacker = "203.0.113.66";
    expect(await status(signIn(email, PASSWORD, home))).toBe(200);
    for (let i = 0; i < FREE_FAILURES; i++)
      expect(await status(signIn(email, "wrong-password", attacker))).toBe(401);
    // The attacker's address, and any other new one, now waits, right password included.
    expect(await status(signIn(email, PASSWORD, attacker))).toBe(429);
    expect(await status(signIn(email, PASSWORD, "192.0.2.40"))).toBe(429);
    // The owner's address is not held, and a mistyped password there neither counts nor waits.
    expect(await status(signIn(email, "wrong-password", home))).toBe(401);
    expect(await status(signIn(email, PASSWORD, home))).toBe(200);
    // That success cleared the streak for everyone.
    expect(await status(signIn(email, "wrong-password", attacker))).toBe(401);
  });

  test("an IPv6 address is known by its /64", async () => {
    const email = await member("v6-owner@shop.test");
    expect(await status(signIn(email, PASSWORD, "2001:db8:aa:1::10"))).toBe(200);
    for (let i = 0; i < FREE_FAILURES; i++)
      expect(await status(signIn(email, "wrong-password", "2001:db8:bb:2::1"))).toBe(401);
    expect(await status(signIn(email, PASSWORD, "2001:db8:bb:2::99"))).toBe(429);
    expect(await status(signIn(email, PASSWORD, "2001:db8:aa:1:ffff::1"))).toBe(200);
  });

  test("an attacker rotating addresses inside one IPv6 /64 is limited as one address", async () => {
    // The limit counts per calendar minute: twelve attempts must not straddle a minute's end.
    const second = new Date().getUTCSeconds();
    if (second > 50) await new Promise((resolve) => setTimeout(resolve, (61 - second) * 1000));
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      // A different account each time, so only the per-address limit is in play.
      const refusal = await admitSignIn(
        `v6-guess-${i}@shop.test`,
        from(`2001:db8:cc:3::${(i + 1).toString(16)}`),
      );
      statuses.push(refusal ? 429 : 200);
      if (refusal) expect(refusal.message).toMatch(/^Too many sign-in attempts from your network\./);
    }
    // Twelve full addresses, one /64: counted under one key against the 10 a minute.
    expect(statuses).toEqual([...Array(10).fill(200), 429, 429]);
    // Another /64 is another client.
    expect(await admitSignIn("v6-other@shop.test", from("2001:db8:cc:4::1"))).toBeNull();
  });

  test("address groups: IPv4 as it is, IPv6 as its /64", () => {
    expect(addressGroup("203.0.113.5")).toBe("203.0.113.5");
    expect(addressGroup("2001:db8:0:1:abcd::1")).toBe("2001:db8:0:1::/64");
    expect(addressGroup("2001:0db8:0000:0001:ffff:ffff:ffff:ffff")).toBe("2001:db8:0:1::/64");
    expect(addressGroup("unknown")).toBe("unknown");
  });
});

describe("the client's address", () => {
  test("is the socket's unless it is a trusted proxy; through trusted proxies, the first untrusted entry from the right", () => {
    const previous = process.env.TRUSTED_PROXIES;
    try {
      delete process.env.TRUSTED_PROXIES;
      expect(clientAddressOf("127.0.0.1", "203.0.113.5")).toBe("127.0.0.1");
      expect(clientAddressOf("::ffff:198.51.100.2", null)).toBe("198.51.100.2");
      process.env.TRUSTED_PROXIES = "127.0.0.1, 10.0.0.0/8";
      expect(clientAddressOf("127.0.0.1", "203.0.113.5")).toBe("203.0.113.5");
      // A client's own entries are left of the real one: they prove nothing.
      expect(clientAddressOf("127.0.0.1", "1.2.3.4, 203.0.113.5, 10.1.2.3")).toBe("203.0.113.5");
      expect(clientAddressOf("127.0.0.1", "not-an-ip, 10.1.2.3")).toBe("10.1.2.3");
      expect(clientAddressOf("198.51.100.9", "203.0.113.5")).toBe("198.51.100.9");
    } finally {
      if (previous === undefined) delete process.env.TRUSTED_PROXIES;
      else process.env.TRUSTED_PROXIES = previous;
    }
  });
});

describe("over HTTP, on the production server", () => {
  let direct: WebServer;
  let proxied: WebServer;

  beforeAll(async () => {
    [direct, proxied] = await Promise.all([
      startWebServer({ SIGN_IN_ATTEMPTS_PER_MINUTE: "10" }),
      startWebServer({ SIGN_IN_ATTEMPTS_PER_MINUTE: "10", TRUSTED_PROXIES: "127.0.0.1" }),
    ]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([direct?.stop(), proxied?.stop()]);
  });

  // The limits count per calendar minute: a test that straddles a minute's end would see two windows.
  async function earlyInAMinute() {
    const second = new Date().getUTCSeconds();
    if (second > 45) await new Promise((resolve) => setTimeout(resolve, (61 - second) * 1000));
  }

  const attempt = (server: WebServer, email: string, headers: Record<string, string> = {}) =>
    fetch(`${server.baseUrl}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.baseUrl, ...headers },
      body: JSON.stringify({ email, password: "wrong-password" }),
    });

  test("30 wrong passwords for one account, each from another forwarded address, are refused after 5", async () => {
    const email = await member("rotating@shop.test");
    const statuses: number[] = [];
    let last: Response | null = null;
    for (let i = 0; i < 30; i++) {
      // Through the trusted proxy each attempt really is another client: only the account limit can stop them.
      last = await attempt(proxied, email, { "x-forwarded-for": `203.0.113.${i + 1}` });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([...Array(5).fill(401), ...Array(25).fill(429)]);
    expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await last!.json()) as { message: string }).message).toMatch(
      /^Too many failed sign-ins for this account\. Try again in \d+ seconds\.$/,
    );
  });

  test("without trusted proxies, X-Forwarded-For and our internal header do not make a new client", async () => {
    await earlyInAMinute();
    // The limit counts per calendar minute: twelve attempts must not straddle a minute's end.
    const second = new Date().getUTCSeconds();
    if (second > 50) await new Promise((resolve) => setTimeout(resolve, (61 - second) * 1000));
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      // A different account each time, so only the per-address limit is in play.
      const res = await attempt(direct, `nobody-${i}@shop.test`, {
        "x-forwarded-for": `198.51.100.${i + 1}`,
        "x-tillflow-client-address": `192.0.2.${i + 1}`,
      });
      statuses.push(res.status);
      if (res.status === 429)
        expect(((await res.json()) as { message: string }).message).toMatch(
          /^Too many sign-in attempts from your network\. Try again in \d+ seconds\.$/,
        );
    }
    expect(statuses).toEqual([...Array(10).fill(401), 429, 429]);
  });

  test("behind a trusted proxy, distinct forwarded clients do not share one count", async () => {
    await earlyInAMinute();
    const from = (client: string, i: number) =>
      attempt(proxied, `someone-${client}-${i}@shop.test`, { "x-forwarded-for": `192.0.2.250, ${client}` });
    const first: number[] = [];
    for (let i = 0; i < 11; i++) first.push((await from("198.51.100.200", i)).status);
    expect(first).toEqual([...Array(10).fill(401), 429]);
    // Another client behind the same proxy still has all its attempts.
    expect((await from("198.51.100.201", 0)).status).toBe(401);
  });
});
