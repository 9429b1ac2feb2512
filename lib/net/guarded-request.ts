import "server-only";
import http from "node:http";
import https from "node:https";
import {
  checkUrl,
  parseHttpUrl,
  pinnedLookup,
  RefusedUrlError,
  type CheckedAddress,
  type Resolver,
} from "./guard";

/**
 * One outbound HTTP exchange through the guard: every hop (the URL, then each redirect) is checked
 * before it is called and connected to at the checked address; redirects are followed here, at
 * most `maxRedirects`; at most `maxBytes` of the answer are read and the rest is discarded; the
 * whole exchange, redirects included, ends after `timeoutMs`.
 */
export interface GuardedRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | null;
  timeoutMs: number;
  /** Default 1 MB. */
  maxBytes?: number;
  /** Default 5. */
  maxRedirects?: number;
  /** Default: the system resolver (tests replace it). */
  resolve?: Resolver;
  /**
   * Optional: why a hop may not be called, or null — asked before each hop connects, the first
   * (`from` null) and every redirect. The HTTP step refuses a host its credential may not go to.
   */
  hopRefusal?(url: URL, from: URL | null): string | null;
}

export interface GuardedResponse {
  status: number;
  statusText: string;
  headers: http.IncomingHttpHeaders;
  /** The answer's first `maxBytes`, as UTF-8. */
  body: string;
  /** Whether the answer was longer than `maxBytes`. */
  truncated: boolean;
  /** The URL that answered (after redirects). */
  url: string;
}

/** The exchange did not finish within `timeoutMs`. */
export class RequestTimeoutError extends Error {
  constructor(
    readonly host: string,
    readonly timeoutMs: number,
  ) {
    super(`${host} did not answer within ${timeoutMs / 1000} s.`);
    this.name = "RequestTimeoutError";
  }
}

/** A redirect that cannot be followed (too many, or no usable Location). Permanent. */
export class RedirectError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RedirectError";
  }
}

export const DEFAULT_MAX_BYTES = 1_000_000;
export const DEFAULT_MAX_REDIRECTS = 5;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/**
 * The only headers carried to another origin (scheme, host or port differ). Browsers and fetch
 * drop `authorization`, `cookie` and `proxy-authorization`; we drop every other header as well:
 * a flow's custom headers (an API key in `X-Api-Key`) and a request's signature (`webhook-*`)
 * are meant for the receiver the merchant named, not for whoever it redirects to. Same-origin
 * redirects keep them all.
 */
const CROSS_ORIGIN_KEPT = new Set(["user-agent", "content-type", "idempotency-key"]);

// Keep-alive agents, shared by every call: a pooled socket was connected to a checked address.
const agents = {
  "http:": new http.Agent({ keepAlive: true }),
  "https:": new https.Agent({ keepAlive: true }),
};

interface Hop {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: string | null;
}

function send(hop: Hop, checked: CheckedAddress, signal: AbortSignal, maxBytes: number) {
  return new Promise<GuardedResponse>((resolve, reject) => {
    const transport = hop.url.protocol === "https:" ? https : http;
    const headers: Record<string, string | number> = { ...hop.headers };
    if (hop.body !== null) headers["content-length"] = Buffer.byteLength(hop.body);
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      fn();
    };
    const req = transport.request(
      hop.url,
      {
        method: hop.method,
        headers,
        agent: agents[hop.url.protocol as "http:" | "https:"],
        lookup: pinnedLookup(checked),
        signal,
      },
      (res) => {
        const answer = (body: string, truncated: boolean): GuardedResponse => ({
          status: res.statusCode ?? 0,
          statusText: res.statusMessage ?? "",
          headers: res.headers,
          body,
          truncated,
          url: hop.url.href,
        });
        if (REDIRECTS.has(res.statusCode ?? 0) && res.headers.location) {
          // A redirect's own body is not needed; draining it lets the socket be reused.
          res.resume();
          settle(() => resolve(answer("", false)));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          if (settled) return;
          const room = maxBytes - size;
          if (chunk.length <= room) {
            chunks.push(chunk);
            size += chunk.length;
            return;
          }
          chunks.push(chunk.subarray(0, room));
          // The rest is discarded: closing the connection is cheaper than reading it.
          settle(() => resolve(answer(Buffer.concat(chunks).toString("utf8"), true)));
          res.destroy();
        });
        res.on("end", () => settle(() => resolve(answer(Buffer.concat(chunks).toString("utf8"), false))));
        res.on("error", (error) => settle(() => reject(error)));
        res.on("aborted", () => settle(() => reject(new Error("the connection closed mid-answer"))));
      },
    );
    req.on("error", (error) => settle(() => reject(error)));
    req.end(hop.body ?? undefined);
  });
}

/** The next hop of a redirect, as browsers follow it. */
function redirected(hop: Hop, status: number, location: string): Hop {
  let url: URL;
  try {
    url = new URL(location, hop.url);
  } catch {
    throw new RedirectError(`${hop.url.host} redirected to '${location}', which is not an address.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new RefusedUrlError(
      `${hop.url.host} redirected to '${url.href}', which is not an http(s) address.`,
    );
  const toGet =
    status === 303 ? hop.method !== "HEAD" : (status === 301 || status === 302) && hop.method === "POST";
  const crossOrigin = url.origin !== hop.url.origin;
  const headers = { ...hop.headers };
  for (const name of Object.keys(headers)) {
    const lower = name.toLowerCase();
    if (crossOrigin && !CROSS_ORIGIN_KEPT.has(lower)) delete headers[name];
    if (toGet && lower === "content-type") delete headers[name];
  }
  return { url, method: toGet ? "GET" : hop.method, headers, body: toGet ? null : hop.body };
}

export async function guardedRequest(request: GuardedRequest): Promise<GuardedResponse> {
  const maxBytes = request.maxBytes ?? DEFAULT_MAX_BYTES;
  const maxRedirects = request.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const first = parseHttpUrl(request.url);
  const signal = AbortSignal.timeout(request.timeoutMs);
  let hop: Hop = { url: first, method: request.method, headers: request.headers, body: request.body };
  for (let redirects = 0, from: URL | null = null; ; redirects += 1) {
    try {
      // Before the address is even resolved: a refused hop is sent nothing, not even its headers.
      const refused = request.hopRefusal?.(hop.url, from) ?? null;
      if (refused) throw new RefusedUrlError(refused);
      const checked = await checkUrl(hop.url, request.resolve);
      if (signal.aborted) throw signal.reason;
      const response = await send(hop, checked, signal, maxBytes);
      const location = response.headers.location;
      if (!REDIRECTS.has(response.status) || !location) return response;
      if (redirects >= maxRedirects)
        throw new RedirectError(
          `${first.host} redirected more than ${maxRedirects} times; Tillflow stopped following.`,
        );
      from = hop.url;
      hop = redirected(hop, response.status, location);
    } catch (error) {
      if (signal.aborted) throw new RequestTimeoutError(hop.url.host, request.timeoutMs);
      throw error;
    }
  }
}
