/**
 * What the production server does to every request before it is answered (SPEC §2 "Trust at the
 * edges"), by Next.js or by a direct route:
 *
 * - the client's address, resolved from the socket and `TRUSTED_PROXIES`
 *   (lib/net/client-address.ts), travels to route handlers and server actions in
 *   `CLIENT_ADDRESS_HEADER`; one the client sent itself is dropped first;
 * - a reply whose headers go out before its request's body has all arrived (a 401 for a missing API
 *   key, a 404 for an unknown webhook, a 413) says `Connection: close`, and the connection is closed
 *   a moment after it, without reading the rest: the client has its answer, and whatever it still
 *   sends is neither read nor allowed to hold the connection. Every other reply keeps the
 *   connection as Node does (a body that came but was not read is discarded), and a connection
 *   that was said to be kept is never closed under the client: a request a pooling client sent on
 *   it would be reset, and clients do not retry a POST;
 * - every request has an id (`X-Request-Id`: the client's or a proxy's when sane, else a new one),
 *   passed on to the handlers in the same header, returned on the reply, and on the one log line
 *   written when the reply has gone (lib/log);
 * - HSTS on replies to https requests: a TLS socket, or a trusted proxy saying
 *   `X-Forwarded-Proto: https`. Over plain http the header would be ignored, or, on a machine
 *   reached by its address, pin a browser to an https that is not there.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";
import { hstsHeader } from "@/lib/http/security-headers";
import { rootLogger } from "@/lib/log/logger";
import { REQUEST_ID_HEADER, requestIdOf } from "@/lib/log/request-id";
import {
  CLIENT_ADDRESS_HEADER,
  clientAddressOf,
  isTrustedProxy,
  markClientAddressHeaderSet,
} from "@/lib/net/client-address";

/** Once per process, before requests arrive: route handlers may then read the header. */
export function startEdge(): void {
  markClientAddressHeaderSet();
}

function header(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(",") : (value ?? null);
}

function isHttps(req: IncomingMessage): boolean {
  if ((req.socket as Partial<TLSSocket>).encrypted) return true;
  if (!isTrustedProxy(req.socket.remoteAddress)) return false;
  // The nearest proxy's word is the last entry.
  const proto = header(req, "x-forwarded-proto")?.split(",").at(-1)?.trim().toLowerCase();
  return proto === "https";
}

/** Long enough for the client to read the reply before the connection goes. */
const CLOSE_UNREAD_AFTER_MS = 1000;

/** Sets a request header in both views of the headers, replacing whatever the client sent under its name. */
function replaceHeader(req: IncomingMessage, name: string, value: string): void {
  for (let i = req.rawHeaders.length - 2; i >= 0; i -= 2) {
    if (req.rawHeaders[i]!.toLowerCase() === name) req.rawHeaders.splice(i, 2);
  }
  req.rawHeaders.push(name, value);
  req.headers[name] = value;
}

/**
 * The request's line, once its reply has gone: API requests at info; pages, assets and the health
 * check (a load balancer asks every few seconds) at debug.
 */
function logRequest(req: IncomingMessage, res: ServerResponse, requestId: string, started: bigint): void {
  const path = (req.url ?? "/").split("?")[0]!;
  const fields = {
    requestId,
    method: req.method,
    path,
    status: res.statusCode,
    durationMs: Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100,
  };
  const message = `${req.method} ${path} ${res.statusCode}`;
  // The root logger: the line names its request itself, and the request's context would say it twice.
  if (path.startsWith("/api/") && path !== "/api/health") rootLogger().info(fields, message);
  else rootLogger().debug(fields, message);
}

/**
 * Whether part of the request's body is still to come. A request without `Content-Length` or
 * `Transfer-Encoding` has no body, though Node marks it complete only after the request handler's
 * first synchronous run.
 */
function bodyPending(req: IncomingMessage): boolean {
  if (req.complete) return false;
  return req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;
}

/**
 * Makes a reply whose headers go out while its request's body is still arriving say
 * `Connection: close`. Every reply's headers pass through `writeHead` (Node's implicit headers call
 * it too), whoever answers: a direct route or Next.js.
 */
function closeIfAnsweredEarly(req: IncomingMessage, res: ServerResponse): void {
  const writeHead = res.writeHead.bind(res);
  res.writeHead = ((...args: Parameters<typeof writeHead>) => {
    if (bodyPending(req)) res.setHeader("connection", "close");
    return writeHead(...args);
  }) as ServerResponse["writeHead"];
}

export function prepareRequest(req: IncomingMessage, res: ServerResponse): string {
  const started = process.hrtime.bigint();
  const requestId = requestIdOf(header(req, REQUEST_ID_HEADER));
  replaceHeader(req, REQUEST_ID_HEADER, requestId);
  res.setHeader("X-Request-Id", requestId);
  res.once("finish", () => logRequest(req, res, requestId, started));
  const client = clientAddressOf(req.socket.remoteAddress, header(req, "x-forwarded-for"));
  // Whatever the client wrote under our header's name goes.
  replaceHeader(req, CLIENT_ADDRESS_HEADER, client);
  if (isHttps(req)) res.setHeader(hstsHeader.key, hstsHeader.value);
  closeIfAnsweredEarly(req, res);
  // Closing at once would reset the connection over a reply the client may not have read yet
  // (a socket closed with input unread sends a reset): the reply is sent, reading stops, and the
  // socket goes a moment later. Node would close a `Connection: close` reply's socket as soon as it
  // is written (`destroySoon`): that now only ends our side. A reply that said keep-alive is left to
  // Node, which reads and discards the rest of its body and keeps the connection.
  const closing = () => !req.complete && /\bclose\b/i.test(String(res.getHeader("connection") ?? ""));
  res.once("prefinish", () => {
    if (!closing()) return;
    const socket = req.socket;
    socket.destroySoon = () => void socket.end();
  });
  res.once("finish", () => {
    if (!closing()) return;
    req.pause();
    const socket = req.socket;
    setTimeout(() => socket.destroy(), CLOSE_UNREAD_AFTER_MS).unref();
  });
  return requestId;
}
