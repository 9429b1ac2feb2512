import { z } from "zod";
import { SIGNATURE_HEADERS, signatureHeaders } from "@/lib/credentials/standard-webhooks";
import { signingSecretOf } from "@/lib/credentials/signing-secret";
import { UnreadableSecretError } from "@/lib/credentials/secret-box";
import { RefusedUrlError, checkUrl, literalRefusal, parseHttpUrl } from "@/lib/net/guard";
import { metrics } from "@/lib/metrics/metrics";
import {
  guardedRequest,
  RedirectError,
  RequestTimeoutError,
  type GuardedResponse,
} from "@/lib/net/guarded-request";
import { authHeaders } from "@/lib/credentials/http-auth";
import { credentialHosts, credentialSecret } from "@/lib/credentials/store";
import { hostOfUrl, hostRefusal } from "@/lib/credentials/hosts";
import { ActionDeferred, ActionError, ActionSkipped, type OutsideExecutor } from "../executor";
import { gateMessage } from "../message-gate";
import type { DbOrTx } from "@/lib/db/client";
import { getDb } from "@/lib/db/client";
import { runCustomerId, type RunEntity } from "../context";
import type { Purpose } from "@/lib/consent/purpose";
import { marketingRefusal } from "@/lib/consent/decide";
import { consentOfCustomer } from "@/lib/consent/store";
import { bodyEscape, headerRefusal } from "./http-request.escape";

interface HttpParams {
  url: string;
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  auth?: { credentialId: string };
  reachesCustomer?: boolean;
  purpose?: Purpose;
}

const httpRequest = z.object({
  url: z.string(),
  method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE"]),
  headers: z.record(z.string(), z.string()),
  body: z.string().nullable(),
  timeoutMs: z.number(),
  /** The credential whose headers are added at send time (never its value: this is recorded). */
  credentialId: z.string().nullable().default(null),
  /** A marketing request that reaches a customer: that customer's id, whose consent is read first. */
  marketingFor: z.string().optional(),
});
type HttpRequest = z.infer<typeof httpRequest>;

const EXCERPT_BYTES = 2_000;

/** A JSON answer up to this size is handed on parsed, as `body` (SPEC §2 "What a step hands on"). */
export const JSON_BODY_MAX_BYTES = 256 * 1024;

/** Headers not handed on: a session cookie meant for Tillflow's request is nobody's business downstream. */
const HIDDEN_HEADERS = new Set(["set-cookie"]);

/** The answer's headers as a step hands them on: lower-case names, each value one string. */
export function answerHeaders(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (value === undefined || HIDDEN_HEADERS.has(lower)) continue;
    out[lower] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

function isJsonType(contentType: string | string[] | undefined): boolean {
  const type = (Array.isArray(contentType) ? contentType[0] : contentType)
    ?.split(";")[0]
    ?.trim()
    .toLowerCase();
  return type === "application/json" || (type?.endsWith("+json") ?? false);
}

/**
 * The answer's body as a step hands it on: parsed, as `body`, when it is JSON of at most 256 KB
 * that read whole; otherwise its first 2,000 characters, as `bodyExcerpt`.
 */
export function answerBody(
  response: Pick<GuardedResponse, "headers" | "body" | "truncated">,
): { body: unknown } | { bodyExcerpt: string } {
  if (
    isJsonType(response.headers["content-type"]) &&
    !response.truncated &&
    Buffer.byteLength(response.body) <= JSON_BODY_MAX_BYTES
  ) {
    try {
      return { body: JSON.parse(response.body) as unknown };
    } catch {
      // Said to be JSON but is not: the excerpt shows what came.
    }
  }
  return { bodyExcerpt: response.body.slice(0, EXCERPT_BYTES) };
}

const PREFLIGHT_MS = 2_000;

/** Answers that say "try again later" (and every 5xx). */
const TRANSIENT = new Set([408, 429]);

/** A `Retry-After` header (seconds, or an HTTP date) in milliseconds from now. */
function retryAfterMs(header: string | string[] | undefined): number | undefined {
  if (Array.isArray(header)) header = header[0];
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** Headers only Tillflow sets; a stored graph older than the rule that refuses them cannot override them. */
const OURS = new Set<string>(["idempotency-key", ...SIGNATURE_HEADERS]);

function withoutOurs(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !OURS.has(name.toLowerCase())));
}

function hostOf(text: string): string {
  try {
    return new URL(text).host;
  } catch {
    return text;
  }
}

/**
 * The refusal of a hop the credential may not go to: the URL's host and every host a redirect
 * leads to must be in its list (redirects drop the credential's headers across origins anyway;
 * the step is refused so the merchant learns where it was sent).
 */
function credentialGuard(credential: { name: string; allowedHosts: string[] }) {
  return (url: URL, from: URL | null): string | null =>
    hostRefusal(credential, hostOfUrl(url.href) ?? url.hostname, from ? { from: from.hostname } : undefined);
}

/**
 * Calls a URL with the delivery's dedupe key as `Idempotency-Key`, so a receiver can drop the
 * repeat that a crash mid-request forces us to send, and signed with the shop's signing secret
 * (Standard Webhooks headers; the secret is read at send time and never recorded, and `webhook-id`
 * is the same dedupe key, so a retry keeps it). Records the status, the headers and the body
 * (parsed when it is JSON of at most 256 KB, else an excerpt); a non-2xx answer fails the step,
 * with the same output. Goes through the outbound guard (lib/net): only public
 * addresses unless HTTP_ACTION_ALLOW lists the host, redirects followed and checked hop by hop,
 * at most 1 MB of the answer read.
 */
function marketingFor(params: HttpParams, entity: RunEntity | null): { marketingFor?: string } {
  const id = params.reachesCustomer && params.purpose === "marketing" ? runCustomerId(entity) : null;
  return id ? { marketingFor: id } : {};
}

/** A marketing request to a customer who does not accept marketing or unsubscribed: skipped. */
async function consentSkip(
  db: DbOrTx,
  request: HttpRequest,
  tenantId: string,
): Promise<ActionSkipped | null> {
  if (!request.marketingFor) return null;
  const customer = await consentOfCustomer(db, tenantId, request.marketingFor);
  const refusal = customer ? marketingRefusal([customer], "messages") : null;
  return refusal
    ? new ActionSkipped(refusal.sentence, { skippedFor: refusal.kind, customerId: refusal.customerId })
    : null;
}

export const httpRequestExecutor: OutsideExecutor<HttpParams, HttpRequest> = {
  effect: "outside",
  request: httpRequest,
  prepare: (params, ctx) => ({
    // Values are escaped where they land (SPEC §2 "Trust at the edges"), as `httpTokenEscapes` says.
    url: ctx.render(params.url, { escape: "url" }).trim(),
    method: params.method,
    headers: Object.fromEntries(
      Object.entries(params.headers).map(([k, v]) => [k, ctx.render(v, { escape: "header" })]),
    ),
    body:
      params.method === "GET" || params.body === undefined
        ? null
        : ctx.render(params.body, { escape: bodyEscape(params) }),
    timeoutMs: params.timeoutMs,
    credentialId: params.auth?.credentialId ?? null,
    ...marketingFor(params, ctx.entity),
  }),
  skipWhy: (db, request, ctx) => consentSkip(db, request, ctx.tenantId),
  // Quiet hours and the shop's cap, as Send email's (lib/messaging), for a marketing request to a
  // customer who may be reached: one who may not is skipped by `send`, and counts for nothing.
  async deferWhy(db, request, ctx) {
    if (!request.marketingFor || (await consentSkip(db, request, ctx.tenantId))) return null;
    const answer = await gateMessage(db, [request.marketingFor], {
      ...ctx,
      path: [],
      pathChanged: null,
      dryRun: true,
    });
    return answer instanceof ActionDeferred ? answer : null;
  },
  async gate(tx, request, ctx) {
    if (!request.marketingFor || (await consentSkip(tx, request, ctx.tenantId))) return null;
    return gateMessage(tx, [request.marketingFor], {
      tenantId: ctx.tenantId,
      automationId: ctx.automationId,
      runId: ctx.runId,
      nodeId: ctx.nodeId,
      eventId: ctx.event.id,
      path: ctx.message?.path ?? [],
      pathChanged: ctx.message?.pathChanged ?? null,
    });
  },
  // Literal addresses and schemes are refused before the delivery is recorded; a host name is
  // resolved and checked when the request is sent (and on every redirect).
  check: (request) => literalRefusal(request.url) ?? headerRefusal(request.headers),
  async preflight(request, ctx) {
    // Its credential's hosts first: a dry run, a backtest and a run all refuse the same host.
    if (request.credentialId) {
      const credential = await credentialHosts(ctx.tenantId, request.credentialId);
      const host = hostOfUrl(request.url);
      const refused = credential && host ? hostRefusal(credential, host) : null;
      if (refused) return refused;
    }
    try {
      // A dry run does not wait long on a slow resolver: no answer in time says nothing.
      await Promise.race([
        checkUrl(parseHttpUrl(request.url)),
        new Promise((resolve) => setTimeout(resolve, PREFLIGHT_MS).unref()),
      ]);
      return null;
    } catch (error) {
      // Only a refusal is worth saying ahead: a host that does not resolve now may resolve later.
      return error instanceof RefusedUrlError ? error.message : null;
    }
  },
  async send(request, ctx) {
    const skip = await consentSkip(getDb(), request, ctx.tenantId);
    if (skip) throw skip;
    const host = hostOf(request.url);
    let credential: Awaited<ReturnType<typeof credentialSecret>>;
    let secret: string;
    try {
      // Two reads, at once: the step's credential (if any) and the shop's signing secret.
      [credential, secret] = await Promise.all([
        request.credentialId ? credentialSecret(ctx.tenantId, request.credentialId) : null,
        signingSecretOf(ctx.tenantId),
      ]);
    } catch (error) {
      // A secret this key cannot open fails the same way every time; a database error may pass
      // (a Postgres restart), so that attempt is tried again like a request that got no answer.
      const unreadable = error instanceof UnreadableSecretError;
      throw new ActionError(
        `The request was not sent: ${unreadable ? error.message : "the shop's secrets could not be read just now."}`,
        {},
        unreadable ? null : {},
      );
    }
    if (request.credentialId && !credential)
      throw new ActionError(
        "The credential this step sends was deleted. Choose another in the step's settings and publish again.",
        {},
        null,
      );
    // The credential goes only to its hosts (lib/credentials/hosts.ts): a host outside them is
    // refused before a byte is sent, and so is a redirect that leaves them.
    const sendsTo = credential ? credentialGuard(credential) : undefined;
    const started = Date.now();
    let response: GuardedResponse;
    try {
      response = await guardedRequest({
        url: request.url,
        method: request.method,
        headers: {
          "user-agent": "Tillflow-Automations/1",
          ...(request.body !== null ? { "content-type": "application/json" } : {}),
          ...withoutOurs(request.headers),
          ...(credential ? withoutOurs(authHeaders(credential.kind, credential.value)) : {}),
          "idempotency-key": ctx.dedupeKey,
          // Signed over the exact text sent (nothing, for a GET), at the moment it is sent.
          ...signatureHeaders(secret, ctx.dedupeKey, request.body ?? "", new Date()),
        },
        body: request.body,
        timeoutMs: request.timeoutMs,
        hopRefusal: sendsTo,
      });
    } catch (error) {
      const durationMs = Date.now() - started;
      metrics().httpAction.observe({ outcome: "no_answer" }, durationMs / 1000);
      // A refused address or an unfollowable redirect would fail the same way again: not retried.
      if (error instanceof RefusedUrlError || error instanceof RedirectError)
        throw new ActionError(error.message, { durationMs }, null);
      throw new ActionError(
        error instanceof RequestTimeoutError
          ? error.message
          : `Could not reach ${host}: ${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)}.`,
        { durationMs },
        {},
      );
    }
    // The body last: an output past 16 KB is cut from its end, and the small fields stay whole.
    const output = {
      status: response.status,
      headers: answerHeaders(response.headers),
      durationMs: Date.now() - started,
      idempotencyKey: ctx.dedupeKey,
      ...answerBody(response),
    };
    const ok = response.status >= 200 && response.status < 300;
    metrics().httpAction.observe(
      { outcome: ok ? "2xx" : `${Math.floor(response.status / 100)}xx` },
      output.durationMs / 1000,
    );
    if (!ok)
      throw new ActionError(
        `${hostOf(response.url)} answered ${response.status} ${response.statusText}.`.trim(),
        output,
        TRANSIENT.has(response.status) || response.status >= 500
          ? { retryAfterMs: retryAfterMs(response.headers["retry-after"]) }
          : null,
      );
    return output;
  },
};
