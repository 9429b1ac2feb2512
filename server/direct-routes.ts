/**
 * Routes the web server answers itself, before Next.js: the few a shop's integration calls many
 * times a second. Each is the same route handler Next.js would run (its module under app/), given a
 * fetch `Request` built from the Node request and its `Response` written back; only Next's request
 * pipeline is skipped, which costs about 1 ms of CPU per request on a small machine (measured for
 * `POST /api/v1/events`: 1.0–1.7 ms of the web server's CPU through Next.js, 0.24–0.33 ms here).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { POST as postDelivery } from "@/app/api/connect/[platform]/[token]/route";
import { POST as postEvents } from "@/app/api/v1/events/route";
import { MAX_DELIVERY_BYTES } from "@/lib/connections/receive";
import { errorResponse, MAX_BATCH_BYTES } from "@/lib/api/route";
import { AppError } from "@/lib/errors";
import { securityHeaders } from "@/lib/http/security-headers";
import { log } from "@/lib/log/logger";

const gzip = promisify(zlib.gzip);

interface DirectRoute {
  // `never`: each handler takes its own params, which `directRoute` reads from the path.
  handler: (req: Request, context: { params: Promise<never> }) => Promise<Response>;
  /**
   * The most body bytes the handler reads. Reading stops one byte after it, so the handler sees a
   * body that is too large and refuses it with its own 413 (without holding the rest in memory).
   */
  maxBytes: number;
}

const ROUTES: Record<string, DirectRoute> = {
  "POST /api/v1/events": { handler: postEvents, maxBytes: MAX_BATCH_BYTES },
};

/**
 * Routes with parameters in their path: a connected store's webhooks (`bench -- connect`: through
 * Next.js a signed 8 KB Shopify order cost the web server about 3 ms of CPU, here a third of it).
 */
const PATTERNS: { method: string; path: RegExp; route: DirectRoute }[] = [
  {
    method: "POST",
    path: /^\/api\/connect\/(?<platform>[a-z]+)\/(?<token>[^/]+)$/,
    // The handler reads at most this and refuses more with its own 413.
    route: { handler: postDelivery, maxBytes: MAX_DELIVERY_BYTES },
  },
];

/** A direct route with the parameters its path gave, as Next.js would pass them. */
interface Matched {
  route: DirectRoute;
  params: Record<string, string>;
}

/** Replies at least this large are gzipped for a client that accepts it, as Next.js does. */
const COMPRESS_FROM_BYTES = 1024;

/** The route this request is for, when the web server answers it itself. */
export function directRoute(req: IncomingMessage): Matched | undefined {
  const url = req.url ?? "/";
  const query = url.indexOf("?");
  const path = query < 0 ? url : url.slice(0, query);
  const exact = ROUTES[`${req.method} ${path}`];
  if (exact) return { route: exact, params: {} };
  for (const pattern of PATTERNS) {
    const match = req.method === pattern.method ? pattern.path.exec(path) : null;
    if (match) return { route: pattern.route, params: { ...match.groups } };
  }
  return undefined;
}

/**
 * At most `limit` bytes of the body. Past them the server stops reading: the handler refuses the
 * body with its 413, and the rest is never read (server/edge.ts closes the connection after the
 * reply), so a client streaming 300 MB gets its answer after `limit` bytes and is then held back
 * by TCP flow control, not served.
 */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer<ArrayBuffer>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    const onData = (chunk: Buffer) => {
      const part = chunk.length > limit - kept ? chunk.subarray(0, limit - kept) : chunk;
      chunks.push(part);
      kept += part.length;
      if (kept >= limit) {
        req.off("data", onData);
        req.pause();
        resolve(Buffer.concat(chunks, kept));
      }
    };
    req.on("data", onData);
    req.on("end", () => resolve(Buffer.concat(chunks, kept)));
    req.on("error", reject);
  });
}

/**
 * The body as the handler's `Request` gives it: nothing is read from the connection until the
 * handler reads the body, and then at most `limit` bytes. A handler checks its caller first (the API
 * key, a connection's token), so a request it refuses is answered having read its headers only:
 * the body waits in the socket's buffers, held back by TCP flow control, and server/edge.ts closes
 * the connection after the reply.
 */
function lazyBody(req: IncomingMessage, limit: number): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const body = await readBody(req, limit);
        if (body.length > 0) controller.enqueue(body);
        controller.close();
      },
    },
    // Nothing is pulled ahead of the reader.
    { highWaterMark: 0 },
  );
}

/** Whether the request says it has a body (`Content-Length` above 0, or `Transfer-Encoding`). */
function hasBody(req: IncomingMessage): boolean {
  return req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;
}

function toRequest(req: IncomingMessage, limit: number): Request {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2)
    headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  const host = req.headers.host ?? "localhost";
  // `duplex` is required with a stream body, and missing from the DOM's RequestInit.
  const init: RequestInit & { duplex: "half" } = {
    method: req.method,
    headers,
    body: hasBody(req) ? lazyBody(req, limit) : undefined,
    duplex: "half",
  };
  return new Request(`http://${host}${req.url ?? "/"}`, init);
}

async function send(req: IncomingMessage, res: ServerResponse, response: Response): Promise<void> {
  let body = Buffer.from(await response.arrayBuffer());
  const headers = new Map<string, string | string[]>();
  // The headers next.config.ts gives Next's replies, so a direct reply carries the same.
  for (const { key, value } of securityHeaders()) headers.set(key.toLowerCase(), value);
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers.set(name, value);
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers.set("set-cookie", cookies);
  const accepts = /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""));
  const mayTransform = !/\bno-transform\b/.test(response.headers.get("cache-control") ?? "");
  if (accepts && mayTransform && body.length >= COMPRESS_FROM_BYTES) {
    body = await gzip(body);
    headers.set("content-encoding", "gzip");
    headers.set("vary", "Accept-Encoding");
  }
  headers.set("content-length", String(body.length));
  // A reply that comes before its body has all arrived says `Connection: close` (server/edge.ts).
  res.writeHead(response.status, Object.fromEntries(headers));
  res.end(body);
}

/** Answers `req` with `route`'s handler; a failure outside the handler is a 500 that leaks nothing. */
export async function serveDirect(
  { route, params }: Matched,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  try {
    const context = { params: Promise.resolve(params) as Promise<never> };
    await send(req, res, await route.handler(toRequest(req, route.maxBytes + 1), context));
  } catch (error) {
    log().error(
      {
        err: error,
        method: req.method,
        path: req.url?.split("?")[0],
        requestId: req.headers["x-request-id"],
      },
      `Unhandled error serving ${req.method} ${req.url?.split("?")[0]}.`,
    );
    if (res.headersSent) return void res.destroy();
    const reply = errorResponse(
      new AppError(500, "internal", "Something went wrong on our side. It has been logged."),
    );
    await send(req, res, reply).catch(() => res.destroy());
  }
}
