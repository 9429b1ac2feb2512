import { z } from "zod";
import { ActionError, type OutsideExecutor } from "../executor";

interface HttpParams {
  url: string;
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
}

const httpRequest = z.object({
  url: z.string(),
  method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE"]),
  headers: z.record(z.string(), z.string()),
  body: z.string().nullable(),
  timeoutMs: z.number(),
});
type HttpRequest = z.infer<typeof httpRequest>;

const EXCERPT_BYTES = 2_000;

/** Answers that say "try again later" (and every 5xx). */
const TRANSIENT = new Set([408, 429]);

/** A `Retry-After` header (seconds, or an HTTP date) in milliseconds from now. */
function retryAfterMs(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

function httpUrl(text: string): URL | null {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:" ? url : null;
  } catch {
    return null;
  }
}

/**
 * Calls a URL with the delivery's dedupe key as `Idempotency-Key`, so a receiver can drop the
 * repeat that a crash mid-request forces us to send. Records the status and a body excerpt;
 * a non-2xx answer fails the step.
 */
export const httpRequestExecutor: OutsideExecutor<HttpParams, HttpRequest> = {
  effect: "outside",
  request: httpRequest,
  prepare: (params, ctx) => ({
    url: ctx.render(params.url).trim(),
    method: params.method,
    headers: Object.fromEntries(Object.entries(params.headers).map(([k, v]) => [k, ctx.render(v)])),
    body: params.method === "GET" || params.body === undefined ? null : ctx.render(params.body),
    timeoutMs: params.timeoutMs,
  }),
  check: (request) => (httpUrl(request.url) ? null : `'${request.url}' is not an http(s) address.`),
  async send(request, ctx) {
    const url = httpUrl(request.url);
    if (!url) throw new ActionError(`'${request.url}' is not an http(s) address.`);
    const started = Date.now();
    let response: Response;
    try {
      response = await fetch(url, {
        method: request.method,
        headers: {
          "user-agent": "Tillflow-Automations/1",
          ...(request.body !== null ? { "content-type": "application/json" } : {}),
          ...request.headers,
          "idempotency-key": ctx.dedupeKey,
        },
        body: request.body,
        signal: AbortSignal.timeout(request.timeoutMs),
        redirect: "manual",
      });
    } catch (error) {
      const timedOut = error instanceof Error && error.name === "TimeoutError";
      throw new ActionError(
        timedOut
          ? `${url.host} did not answer within ${request.timeoutMs / 1000} s.`
          : `Could not reach ${url.host}: ${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)}.`,
        { durationMs: Date.now() - started },
        {},
      );
    }
    const text = await response.text().catch(() => "");
    const output = {
      status: response.status,
      durationMs: Date.now() - started,
      bodyExcerpt: text.slice(0, EXCERPT_BYTES),
      idempotencyKey: ctx.dedupeKey,
    };
    if (!response.ok)
      throw new ActionError(
        `${url.host} answered ${response.status} ${response.statusText}.`.trim(),
        output,
        TRANSIENT.has(response.status) || response.status >= 500
          ? { retryAfterMs: retryAfterMs(response.headers.get("retry-after")) }
          : null,
      );
    return output;
  },
};
