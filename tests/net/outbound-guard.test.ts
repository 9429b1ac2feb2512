import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { POST as dryRunRoute } from "@/app/api/v1/automations/[id]/dry-run/route";
import { POST as createRoute } from "@/app/api/v1/automations/route";
import { httpRequestExecutor } from "@/lib/automations/nodes/http-request/http-request.execute";
import { ActionError, type ActionContext } from "@/lib/automations/nodes/executor";
import { checkUrl, literalRefusal, RefusedUrlError, type Resolver } from "@/lib/net/guard";
import { guardedRequest, RedirectError } from "@/lib/net/guarded-request";
import { call } from "@/tests/helpers/fixtures";
import { createShop } from "@/tests/helpers/shop";
import { flow } from "@/tests/helpers/flows";
import { closeServer } from "@/tests/helpers/receiver";

// One local receiver. Its routes redirect (to itself, to a private address, in a loop) or answer
// with a body larger than the 1 MB the guard reads.
let server: http.Server;
let port: number;
const hits: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url} host=${req.headers.host}`);
    if (req.url === "/ok") return res.end("fine");
    if (req.url === "/to-ok") return res.writeHead(302, { location: "/ok" }).end();
    if (req.url === "/to-metadata")
      return res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end();
    if (req.url === "/to-private-name")
      return res.writeHead(307, { location: "http://intranet.test/x" }).end();
    if (req.url === "/loop") return res.writeHead(302, { location: "/loop" }).end();
    if (req.url === "/headers") return res.end(JSON.stringify(req.headers));
    if (req.url === "/to-headers") return res.writeHead(307, { location: "/headers" }).end();
    if (req.url === "/to-other-origin")
      return res.writeHead(307, { location: `http://127.0.0.1:${otherPort}/headers` }).end();
    if (req.url === "/huge") {
      res.writeHead(200, { "content-type": "text/plain" });
      return res.end("x".repeat(3_000_000));
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => closeServer(server));

// A second receiver on another port: another origin, to which a redirect must not carry credentials.
let other: http.Server;
let otherPort: number;
beforeAll(async () => {
  other = http.createServer((req, res) => res.end(JSON.stringify(req.headers)));
  await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
  otherPort = (other.address() as AddressInfo).port;
});
afterAll(() => closeServer(other));

const saved = process.env.HTTP_ACTION_ALLOW;
afterEach(() => {
  process.env.HTTP_ACTION_ALLOW = saved;
});

/** Names that do not exist in real DNS, answered as if they did (tests the checked address is the one used). */
const fakeDns: Resolver = async (hostname) => {
  const table: Record<string, string[]> = {
    "shop.test": ["127.0.0.1"],
    "intranet.test": ["10.0.0.7"],
    "mixed.test": ["93.184.216.34", "192.168.0.10"],
    "public.test": ["93.184.216.34"],
  };
  const addresses = table[hostname];
  if (!addresses) throw new Error(`getaddrinfo ENOTFOUND ${hostname}`);
  return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
};

const get = (url: string) =>
  guardedRequest({ url, method: "GET", headers: {}, body: null, timeoutMs: 5000, resolve: fakeDns });

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RefusedUrlError);
  return (error as Error).message;
}

describe("without HTTP_ACTION_ALLOW, only public addresses are called", () => {
  test.each([
    ["http://127.0.0.1/", "a loopback address (127.0.0.1)"],
    ["http://[::1]/", "a loopback address (::1)"],
    ["http://10.0.0.1/", "a private address (10.0.0.1)"],
    ["http://172.16.5.4/", "a private address (172.16.5.4)"],
    ["http://192.168.1.1/", "a private address (192.168.1.1)"],
    ["http://169.254.169.254/latest/meta-data/", "a link-local address (169.254.169.254)"],
    ["http://[fe80::1]/", "a link-local address (fe80::1)"],
    ["http://100.64.0.1/", "a carrier-grade NAT address (100.64.0.1)"],
    ["http://224.0.0.1/", "a multicast address (224.0.0.1)"],
    ["http://0.0.0.0/", "an unspecified address (0.0.0.0)"],
    ["http://[fd00::1]/", "a unique local address (fd00::1)"],
    ["http://[::ffff:127.0.0.1]/", "a loopback address (::ffff:7f00:1)"],
    ["http://2130706433/", "a loopback address (127.0.0.1)"],
  ])("%s is refused as %s", async (url, what) => {
    process.env.HTTP_ACTION_ALLOW = "";
    expect(await refusal(get(url))).toContain(`it is ${what}.`);
  });

  test("the refusal names the URL, the address and the way out", async () => {
    process.env.HTTP_ACTION_ALLOW = "";
    expect(await refusal(get("http://169.254.169.254/latest/meta-data/iam?x=secret"))).toBe(
      "Refused to call http://169.254.169.254/…: it is a link-local address (169.254.169.254). Tillflow only calls public internet addresses; an administrator can allow a host with HTTP_ACTION_ALLOW.",
    );
  });

  test("a host name is resolved first: localhost and names resolving to private addresses are refused", async () => {
    process.env.HTTP_ACTION_ALLOW = "";
    const viaSystem = await refusal(
      guardedRequest({
        url: `http://localhost:${port}/ok`,
        method: "GET",
        headers: {},
        body: null,
        timeoutMs: 5000,
      }),
    );
    expect(viaSystem).toMatch(
      /^Refused to call http:\/\/localhost:\d+\/…: localhost is not a public address\./,
    );
    expect(await refusal(get("http://intranet.test/"))).toBe(
      "Refused to call http://intranet.test/: intranet.test is not a public address. Tillflow only calls public internet addresses; an administrator can allow a host with HTTP_ACTION_ALLOW.",
    );
    // One bad address among several refuses the host: a connection could land on any of them.
    expect(await refusal(get("http://mixed.test/"))).toContain("mixed.test is not a public address");
    expect(hits).toEqual([]);
  });

  test("a refusal of a host name never names what it resolved to (viewers read run history and dry runs)", async () => {
    process.env.HTTP_ACTION_ALLOW = "";
    for (const url of ["http://intranet.test/", "http://mixed.test/", `http://shop.test:${port}/ok`]) {
      const message = await refusal(get(url));
      expect(message).not.toMatch(/10\.0\.0\.7|192\.168|127\.0\.0\.1|::1|private|loopback/);
    }
    // The server keeps the detail for its own logs.
    const error = await get("http://intranet.test/").catch((e: unknown) => e);
    expect((error as RefusedUrlError).resolved).toEqual({ address: "10.0.0.7", kind: "private" });
  });

  test("only http and https", async () => {
    expect(await refusal(get("ftp://example.com/file"))).toBe(
      "'ftp://example.com/file' is not an http(s) address.",
    );
    expect(await refusal(get("file:///etc/passwd"))).toBe("'file:///etc/passwd' is not an http(s) address.");
  });

  test("a public address passes the check", async () => {
    process.env.HTTP_ACTION_ALLOW = "";
    expect(await checkUrl(new URL("https://public.test/x"), fakeDns)).toEqual({
      address: "93.184.216.34",
      family: 4,
    });
  });
});

describe("HTTP_ACTION_ALLOW", () => {
  test("an allowed address, range or host name is called", async () => {
    for (const allow of ["127.0.0.1", "127.0.0.0/8", "localhost"]) {
      process.env.HTTP_ACTION_ALLOW = allow;
      const res = await guardedRequest({
        url: `http://localhost:${port}/ok`,
        method: "GET",
        headers: {},
        body: null,
        timeoutMs: 5000,
        resolve: async () => [{ address: "127.0.0.1", family: 4 }],
      });
      expect(res).toMatchObject({ status: 200, body: "fine", truncated: false });
    }
  });

  test("the connection goes to the address that was checked, not to a second lookup", async () => {
    // shop.test exists only in fakeDns: reaching the receiver proves the checked address was used.
    process.env.HTTP_ACTION_ALLOW = "127.0.0.1";
    const res = await get(`http://shop.test:${port}/ok`);
    expect(res.status).toBe(200);
    expect(hits.at(-1)).toBe(`GET /ok host=shop.test:${port}`);
  });
});

describe("redirects", () => {
  test("are followed, each hop checked", async () => {
    process.env.HTTP_ACTION_ALLOW = "127.0.0.1";
    const res = await get(`http://127.0.0.1:${port}/to-ok`);
    expect(res).toMatchObject({ status: 200, body: "fine", url: `http://127.0.0.1:${port}/ok` });
  });

  test("to a private address are refused", async () => {
    process.env.HTTP_ACTION_ALLOW = "127.0.0.1";
    expect(await refusal(get(`http://127.0.0.1:${port}/to-metadata`))).toContain(
      "Refused to call http://169.254.169.254/…: it is a link-local address (169.254.169.254).",
    );
    expect(await refusal(get(`http://127.0.0.1:${port}/to-private-name`))).toContain(
      "Refused to call http://intranet.test/…: intranet.test is not a public address.",
    );
  });

  describe("carry the flow's headers only to the same origin", () => {
    const sent = {
      "user-agent": "Tillflow-Automations/1",
      "content-type": "application/json",
      "idempotency-key": "run:node:1",
      Authorization: "Bearer s3cret",
      Cookie: "session=abc",
      "Proxy-Authorization": "Basic eA==",
      "X-Api-Key": "k-123",
      "webhook-signature": "v1,abc=",
      "webhook-id": "msg_1",
    };
    const headersAt = async (path: string) => {
      const res = await guardedRequest({
        url: `http://127.0.0.1:${port}${path}`,
        method: "POST",
        headers: sent,
        body: "{}",
        timeoutMs: 5000,
      });
      expect(res.status).toBe(200);
      return { url: res.url, headers: JSON.parse(res.body) as Record<string, string> };
    };

    test("a same-origin redirect keeps them all", async () => {
      process.env.HTTP_ACTION_ALLOW = "127.0.0.1";
      const { url, headers } = await headersAt("/to-headers");
      expect(url).toBe(`http://127.0.0.1:${port}/headers`);
      expect(headers).toMatchObject({
        authorization: "Bearer s3cret",
        cookie: "session=abc",
        "proxy-authorization": "Basic eA==",
        "x-api-key": "k-123",
        "webhook-signature": "v1,abc=",
        "idempotency-key": "run:node:1",
      });
    });

    test("a redirect to another port drops credentials, custom and signature headers", async () => {
      process.env.HTTP_ACTION_ALLOW = "127.0.0.1";
      const { url, headers } = await headersAt("/to-other-origin");
      expect(url).toBe(`http://127.0.0.1:${otherPort}/headers`);
      for (const name of [
        "authorization",
        "cookie",
        "proxy-authorization",
        "x-api-key",
        "webhook-signature",
        "webhook-id",
      ])
        expect(headers).not.toHaveProperty(name);
      // Ours stay: the receiver can still drop a repeat and read the (307: re-sent) body.
      expect(headers).toMatchObject({
        "user-agent": "Tillflow-Automations/1",
        "content-type": "application/json",
        "idempotency-key": "run:node:1",
      });
    });
  });

  test("at most 5", async () => {
    process.env.HTTP_ACTION_ALLOW = "127.0.0.1";
    const before = hits.length;
    const error = await get(`http://127.0.0.1:${port}/loop`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedirectError);
    expect((error as Error).message).toBe(
      `127.0.0.1:${port} redirected more than 5 times; Tillflow stopped following.`,
    );
    expect(hits.length - before).toBe(6);
  });
});

test("at most 1 MB of an answer is read", async () => {
  process.env.HTTP_ACTION_ALLOW = "127.0.0.1";
  const res = await get(`http://127.0.0.1:${port}/huge`);
  expect(res.status).toBe(200);
  expect(res.body.length).toBe(1_000_000);
  expect(res.truncated).toBe(true);
});

describe("the HTTP action", () => {
  // A real shop: every request is signed with its signing secret, read when it is sent.
  let ctx: ActionContext;
  beforeAll(async () => {
    ctx = { dedupeKey: "run:node:1", tenantId: (await createShop()).tenant.id } as ActionContext;
  });
  const request = (url: string) => ({
    url,
    method: "POST" as const,
    headers: {},
    body: "{}",
    timeoutMs: 5000,
    credentialId: null,
  });

  test("a refused address fails the step for good (not retried)", async () => {
    process.env.HTTP_ACTION_ALLOW = "";
    const error = await httpRequestExecutor
      .send(request(`http://localhost:${port}/ok`), ctx)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ActionError);
    expect((error as ActionError).message).toMatch(
      /^Refused to call http:\/\/localhost:\d+\/…: localhost is not a public address/,
    );
    expect((error as ActionError).transient).toBeNull();
  });

  test("a literal private address is refused before anything is sent (check), and dry runs are told (preflight)", async () => {
    process.env.HTTP_ACTION_ALLOW = "";
    expect(httpRequestExecutor.check?.(request("http://10.0.0.1/hook"))).toBe(
      "Refused to call http://10.0.0.1/…: it is a private address (10.0.0.1). Tillflow only calls public internet addresses; an administrator can allow a host with HTTP_ACTION_ALLOW.",
    );
    expect(httpRequestExecutor.check?.(request("https://example.com/hook"))).toBeNull();
    expect(await httpRequestExecutor.preflight?.(request(`http://localhost:${port}/ok`), ctx)).toMatch(
      /: localhost is not a public address\./,
    );
    process.env.HTTP_ACTION_ALLOW = "localhost";
    expect(await httpRequestExecutor.preflight?.(request(`http://localhost:${port}/ok`), ctx)).toBeNull();
  });

  test("an allowed receiver gets the call with its Idempotency-Key", async () => {
    process.env.HTTP_ACTION_ALLOW = "127.0.0.1,localhost";
    const output = await httpRequestExecutor.send(request(`http://127.0.0.1:${port}/ok`), ctx);
    expect(output).toMatchObject({ status: 200, bodyExcerpt: "fine", idempotencyKey: "run:node:1" });
  });
});

test("literalRefusal says nothing about host names (they are resolved when sent)", () => {
  process.env.HTTP_ACTION_ALLOW = "";
  expect(literalRefusal("http://localhost/")).toBeNull();
  expect(literalRefusal("http://[::1]:8080/")).toContain("a loopback address (::1)");
});

test("a dry run says the URL would be refused", async () => {
  process.env.HTTP_ACTION_ALLOW = "";
  const shop = await createShop();
  const created = await call<{ id: string }>(createRoute, {
    method: "POST",
    key: shop.keys.editor,
    body: {
      name: "Metadata",
      graph: flow(
        [
          { id: "t", type: "auto.trigger.webhook", params: { token: "tok_guard_dry_run_1" } },
          { id: "call", type: "auto.action.http_request", params: { url: "http://localhost:9/hook" } },
        ],
        [["t", "call"]],
      ),
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const res = await call<{ steps: { nodeId: string; outcome: string; error?: string }[] }>(dryRunRoute, {
    method: "POST",
    key: shop.keys.viewer,
    params: { id: created.body.id },
    body: {},
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const step = res.body.steps.find((s) => s.nodeId === "call");
  expect(step).toMatchObject({ outcome: "error" });
  expect(step!.error).toBe(
    "Refused to call http://localhost:9/…: localhost is not a public address. Tillflow only calls public internet addresses; an administrator can allow a host with HTTP_ACTION_ALLOW.",
  );
  // A viewer ran it: the resolved address is not theirs to learn.
  expect(step!.error).not.toMatch(/127\.0\.0\.1|::1|loopback/);
});
