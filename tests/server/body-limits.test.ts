import crypto from "node:crypto";
import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { readBodyText } from "@/lib/api/body";
import { upsertEntity } from "@/lib/entities/service";
import { AppError } from "@/lib/errors";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { flow, publishFlow } from "@/tests/helpers/flows";
import { startWebServer, type WebServer } from "@/tests/helpers/web-server";

// Every body is read as a stream with a byte count and refused with 413 as soon as it passes its
// limit; an inbound webhook checks its token before reading the body, and the direct routes their API
// key or connection token (SPEC §2 "Trust at the edges").

const MB = 1_000_000;

describe("the streamed reader", () => {
  const tooLarge = () => new AppError(413, "too_large", "Too large.");

  /** A body of `total` bytes made on demand, 64 KB at a time, that counts what was pulled. */
  function lazyBody(total: number) {
    const chunk = new Uint8Array(65_536).fill(97);
    const state = { pulled: 0, cancelled: false };
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (state.pulled >= total) return controller.close();
        state.pulled += chunk.byteLength;
        controller.enqueue(chunk);
      },
      cancel() {
        state.cancelled = true;
      },
    });
    return { stream, state };
  }

  test("stops and cancels the stream the moment the body passes its limit", async () => {
    const { stream, state } = lazyBody(300 * MB);
    const req = new Request("http://test.local/", {
      method: "POST",
      body: stream,
      duplex: "half",
    } as RequestInit);
    await expect(readBodyText(req, MB, tooLarge)).rejects.toMatchObject({ status: 413 });
    expect(state.pulled).toBeLessThan(2 * MB);
    expect(state.cancelled).toBe(true);
  });

  test("refuses a declared Content-Length over the limit before reading, and reads a body within it", async () => {
    const { stream, state } = lazyBody(10 * MB);
    const req = new Request("http://test.local/", {
      method: "POST",
      body: stream,
      duplex: "half",
      headers: { "content-length": String(10 * MB) },
    } as RequestInit);
    await expect(readBodyText(req, MB, tooLarge)).rejects.toMatchObject({ status: 413 });
    expect(state.pulled).toBeLessThanOrEqual(65_536 * 2);
    const text = await readBodyText(
      new Request("http://test.local/", { method: "POST", body: "héllo" }),
      6,
      tooLarge,
    );
    expect(text).toBe("héllo");
    await expect(
      readBodyText(new Request("http://test.local/", { method: "POST", body: "héllo!" }), 6, tooLarge),
    ).rejects.toMatchObject({ status: 413 });
  });
});

describe("on the production server", () => {
  let server: WebServer;
  let shop: TestShop;
  let token: string;

  beforeAll(async () => {
    shop = await createShop();
    token = crypto.randomBytes(18).toString("base64url");
    await publishFlow(
      shop.keys.editor,
      "Big hook",
      flow(
        [
          { id: "in", type: "auto.trigger.webhook", params: { token } },
          { id: "task", type: "auto.action.create_task", params: { title: "Hooked" } },
        ],
        [["in", "task"]],
      ),
    );
    await upsertEntity(
      shop.tenant.id,
      "order",
      "o-1",
      { number: "1", status: "paid", total: 5, currency: "EUR" },
      "test",
    );
    server = await startWebServer();
  }, 120_000);

  afterAll(() => server?.stop());

  interface Outcome {
    status: number;
    body: string;
    /** Bytes the client had handed to its socket when the reply's headers arrived. */
    sentAtReply: number;
  }

  /**
   * POSTs up to `total` bytes chunked (no Content-Length), made as the socket takes them, and
   * stops sending once the reply has arrived.
   */
  function sendChunked(path: string, headers: Record<string, string>, total = 300 * MB): Promise<Outcome> {
    return new Promise((resolve, reject) => {
      const chunk = Buffer.alloc(65_536, "a");
      let sent = 0;
      let replied = false;
      const req = http.request(
        `${server.baseUrl}${path}`,
        { method: "POST", agent: false, headers },
        (res) => {
          replied = true;
          const sentAtReply = sent;
          let body = "";
          res.on("data", (c: Buffer) => (body += c.toString()));
          res.on("end", () => {
            req.destroy();
            resolve({ status: res.statusCode ?? 0, body, sentAtReply });
          });
        },
      );
      // A server that stops reading may reset the connection while we write: the reply counts.
      req.on("error", (error) => {
        if (!replied) reject(error);
      });
      const write = () => {
        while (!replied && sent < total) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once("drain", write);
        }
        if (!replied) req.end();
      };
      write();
    });
  }

  const routes = (): { name: string; path: string; headers: Record<string, string>; message: RegExp }[] => [
    {
      name: "POST /api/v1/events",
      path: "/api/v1/events",
      headers: { authorization: `Bearer ${shop.keys.editor}`, "content-type": "application/json" },
      message: /larger than 5 MB/,
    },
    {
      name: "POST /api/mcp",
      path: "/api/mcp",
      headers: {
        authorization: `Bearer ${shop.keys.editor}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      message: /larger than 1 MB/,
    },
    {
      name: "POST /api/hooks/<token>",
      path: `/api/hooks/${token}`,
      headers: { "content-type": "application/json" },
      message: /larger than 256 KB/,
    },
  ];

  test("a 300 MB chunked body is refused with 413 after a few MB, and the server's memory stays low", async () => {
    const before = server.rssBytes();
    for (const route of routes()) {
      const outcome = await sendChunked(route.path, route.headers);
      expect(outcome.status, route.name).toBe(413);
      expect(JSON.parse(outcome.body).error.message, route.name).toMatch(route.message);
      // The limit plus what the sockets' buffers hold on both sides (Linux grows each to several
      // MB on loopback): a tenth of the 300 MB at most.
      expect(outcome.sentAtReply, route.name).toBeLessThan(32 * MB);
    }
    expect(server.rssBytes() - before).toBeLessThan(100 * MB);
    // And the server still answers.
    const health = await fetch(`${server.baseUrl}/api/health?scope=web`);
    expect(health.status).toBe(200);
  }, 120_000);

  test("a client that reads its reply late still gets its 413, and the connection goes a moment later", async () => {
    // `Connection: close` and 8 MB of a chunked body; the server replies and stops reading with
    // bytes unread. The client reads nothing for 300 ms, then sends a little more (as a client
    // streaming a body does) and reads. A server that closed the socket at once had reset the
    // connection by then: that write failed and the 413 was lost (seen in CI as EPIPE).
    const url = new URL(server.baseUrl);
    // Half-open allowed: the client does not end its side when the server ends its own.
    const socket = net.connect({ port: Number(url.port), host: url.hostname, allowHalfOpen: true });
    await new Promise((resolve) => socket.once("connect", resolve));
    socket.pause();
    const received: Buffer[] = [];
    let failure: Error | null = null;
    socket.on("data", (c: Buffer) => received.push(c));
    socket.on("error", (e) => (failure ??= e));
    const closed = new Promise((resolve) => socket.once("close", resolve));
    const ended = new Promise((resolve) => socket.once("end", resolve));
    const chunked = (data: Buffer) => [`${data.length.toString(16)}\r\n`, data, "\r\n"];
    const chunk = Buffer.alloc(65_536, "a");
    socket.write(
      `POST /api/v1/events HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${shop.keys.editor}\r\n` +
        "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n",
    );
    for (let sent = 0; sent < 8 * MB; sent += chunk.length)
      for (const part of chunked(chunk)) socket.write(part);
    await new Promise((r) => setTimeout(r, 300));
    for (const part of chunked(chunk.subarray(0, 1024))) socket.write(part);
    await new Promise((r) => setTimeout(r, 50));
    socket.resume();
    await Promise.race([ended, closed]);
    expect(failure).toBeNull();
    const reply = Buffer.concat(received).toString();
    expect(reply).toMatch(/^HTTP\/1\.1 413 /);
    expect(reply).toMatch(/larger than 5 MB/);
    // Then the server closes the connection, though the client goes on sending: it is not read.
    const endedAt = performance.now();
    const sending = setInterval(() => socket.write(chunked(chunk.subarray(0, 1024)).join("")), 100);
    await closed;
    clearInterval(sending);
    expect(performance.now() - endedAt).toBeLessThan(5_000);
  }, 60_000);

  test("an unknown webhook token is a 404 before any of the body is read", async () => {
    const unknown = crypto.randomBytes(18).toString("base64url");
    const outcome = await sendChunked(`/api/hooks/${unknown}`, { "content-type": "application/json" });
    expect(outcome.status).toBe(404);
    expect(outcome.sentAtReply).toBeLessThan(32 * MB);
  }, 60_000);

  /**
   * Writes a request's headers, `Content-Length: bodyBytes` among them, and none of its body until
   * the reply has come: a server that read the body before deciding would never answer. Then writes
   * the body as a client streaming it regardless would, and times how soon the server closes the
   * connection (it reads none of it): its side at once, all of it a second later.
   */
  async function refusedBeforeBody(
    path: string,
    headers: Record<string, string>,
    bodyBytes: number,
  ): Promise<{ reply: string; closedAfterMs: number }> {
    const url = new URL(server.baseUrl);
    const socket = net.connect({ port: Number(url.port), host: url.hostname, allowHalfOpen: true });
    await new Promise((resolve) => socket.once("connect", resolve));
    let reply = "";
    socket.on("data", (c: Buffer) => (reply += c.toString()));
    // Writing on after the server closed fails: that is the client's doing, not a lost reply.
    socket.on("error", () => {});
    // The server's end of the connection: its FIN (`end`), or a reset once it stops waiting.
    let closed = false;
    const closing = new Promise((resolve) => {
      socket.once("end", resolve);
      socket.once("close", resolve);
    }).then(() => (closed = true));
    const lines = [`POST ${path} HTTP/1.1`, `Host: ${url.host}`, `Content-Length: ${bodyBytes}`];
    for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
    socket.write(`${lines.join("\r\n")}\r\n\r\n`);
    const complete = () => {
      const [head, body] = reply.split("\r\n\r\n", 2);
      const length = /^content-length: *(\d+)/im.exec(head ?? "")?.[1];
      return body !== undefined && length !== undefined && Buffer.byteLength(body) >= Number(length);
    };
    for (const deadline = Date.now() + 15_000; !complete();) {
      if (Date.now() > deadline || closed)
        throw new Error(`No reply came while the body was held back: ${JSON.stringify(reply)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const repliedAt = performance.now();
    const chunk = Buffer.alloc(65_536, "a");
    for (let sent = 0; sent < bodyBytes && !closed; sent += chunk.length) {
      socket.write(chunk);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await Promise.race([closing, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    socket.destroy();
    return { reply, closedAfterMs: closed ? performance.now() - repliedAt : Infinity };
  }

  test("an anonymous 5 MB batch of events and a 2 MB delivery to an unknown connection are refused on their headers", async () => {
    const anonymous = await refusedBeforeBody(
      "/api/v1/events",
      { "Content-Type": "application/json", Authorization: "Bearer tf_not-a-key-at-all-000000000000" },
      5 * MB,
    );
    const unknown = crypto.randomBytes(18).toString("base64url");
    const delivery = await refusedBeforeBody(
      `/api/connect/shopify/${unknown}`,
      { "Content-Type": "application/json", "X-Shopify-Topic": "orders/create" },
      2 * MB,
    );
    for (const [outcome, status, code] of [
      [anonymous, 401, "unauthorized"],
      [delivery, 404, "not_found"],
    ] as const) {
      expect(outcome.reply).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
      // The connection cannot carry another request with the body unread, and says so.
      expect(outcome.reply).toMatch(/\r\nconnection: close\r\n/i);
      const body = JSON.parse(outcome.reply.split("\r\n\r\n")[1]!) as {
        error: { code: string; message: string };
      };
      expect(body.error.code).toBe(code);
      expect(body.error.message).toMatch(/\w+ \w+ \w+/);
      // Then it goes, though the client goes on sending: a second for the client to read its reply.
      expect(outcome.closedAfterMs).toBeLessThan(5_000);
    }
  }, 60_000);

  test("bodies within their limits are still read and answered", async () => {
    const hook = await fetch(`${server.baseUrl}/api/hooks/${token}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ hello: "x".repeat(200_000) }),
    });
    expect(hook.status).toBe(202);
    const events = await fetch(`${server.baseUrl}/api/v1/events`, {
      method: "POST",
      headers: { authorization: `Bearer ${shop.keys.editor}`, "content-type": "application/json" },
      // 4 MB of events: within the 5 MB limit for a batch.
      body: JSON.stringify(
        Array.from({ length: 1000 }, (_, i) => ({
          id: `fits-${i}`,
          type: "order.fulfilled",
          domain: "order",
          entityId: "o-1",
          payload: { note: "x".repeat(4000) },
        })),
      ),
    });
    expect(events.status).toBe(201);
    const mcp = await fetch(`${server.baseUrl}/api/mcp`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${shop.keys.editor}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(mcp.status).toBe(200);
    expect(((await mcp.json()) as { result: { tools: unknown[] } }).result.tools.length).toBeGreaterThan(0);
  }, 60_000);
});
