import "server-only";
import { config } from "@/lib/config/config";
import { RefusedUrlError } from "@/lib/net/guard";
import { guardedRequest, RedirectError, RequestTimeoutError } from "@/lib/net/guarded-request";

/**
 * The two platforms' write APIs (issue 52), as small typed clients over one exchange:
 * Shopify's GraphQL Admin API (`POST https://<shop>.myshopify.com/admin/api/<version>/graphql.json`,
 * header `X-Shopify-Access-Token`; `@shopify/admin-api-client` is not among our packages, so this is
 * the same request written with our outbound guard) and WooCommerce's REST API v3
 * (`https://<store>/wp-json/wc/v3/…`, HTTP Basic with the consumer key and secret, https only).
 *
 * Every call goes to the store's own host through the outbound guard (no redirects followed: a
 * token never leaves its host), or, in tests, to `STORE_API_BASE_URL`. No error sentence here
 * carries a header, so the token never reaches a step's record or a log.
 */

/** The Admin API version every call names (pinned; Shopify supports each for a year). */
export const SHOPIFY_API_VERSION = "2025-10";

const TIMEOUT_MS = 10_000;

/** A throttled call waits in the step for at most this long; a longer wait is a durable retry. */
export const MAX_IN_STEP_WAIT_MS = 5_000;
/** Calls (the first and the throttled repeats) a step makes before it leaves it to a retry. */
const ATTEMPTS = 3;

/** A call that failed: `transient` when a later try may succeed (throttled, 5xx, no answer). */
export class StoreApiError extends Error {
  constructor(
    message: string,
    readonly transient: { retryAfterMs?: number } | null,
  ) {
    super(message);
    this.name = "StoreApiError";
  }
}

interface Exchange {
  status: number;
  body: string;
  retryAfter?: string;
}

/** The origin a store's calls go to: its own, or STORE_API_BASE_URL in tests. */
function originOf(host: string): string {
  return config().STORE_API_BASE_URL?.replace(/\/$/, "") ?? `https://${host}`;
}

async function exchange(
  platform: string,
  host: string,
  path: string,
  method: string,
  headers: Record<string, string>,
  body: string | null,
): Promise<Exchange> {
  const override = config().STORE_API_BASE_URL;
  const url = `${originOf(host)}${path}`;
  try {
    if (override) {
      // An operator's own stand-in (tests): called as configured, like AI_BASE_URL.
      const response = await fetch(url, {
        method,
        headers,
        body,
        redirect: "manual",
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      return {
        status: response.status,
        body: await response.text(),
        retryAfter: response.headers.get("retry-after") ?? undefined,
      };
    }
    const response = await guardedRequest({
      url,
      method,
      headers,
      body,
      timeoutMs: TIMEOUT_MS,
      maxRedirects: 0,
    });
    const retryAfter = response.headers["retry-after"];
    return {
      status: response.status,
      body: response.body,
      retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
    };
  } catch (error) {
    if (error instanceof RefusedUrlError || error instanceof RedirectError)
      throw new StoreApiError(error.message, null);
    if (error instanceof RequestTimeoutError || (error instanceof Error && error.name === "TimeoutError"))
      throw new StoreApiError(`${platform} did not answer within ${TIMEOUT_MS / 1000} s.`, {});
    throw new StoreApiError(`Could not reach ${platform} at ${host}.`, {});
  }
}

function retryAfterMs(header: string | undefined): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  return Number.isFinite(seconds) ? Math.max(0, seconds * 1000) : undefined;
}

function httpFailure(platform: string, status: number, said: string | null): StoreApiError {
  const words =
    status === 401
      ? "the token was refused (revoked or mistyped): connect the store again with a new one"
      : status === 403
        ? "the token lacks a permission this step needs (see the scopes in docs/stores.md)"
        : status === 404
          ? "the record or the address was not found"
          : `it answered ${status}`;
  const transient = status === 408 || status === 429 || status >= 500;
  return new StoreApiError(
    `${platform} refused the call: ${words}${said ? ` (${platform} said: ${said})` : ""}.`,
    transient ? {} : null,
  );
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------
// Shopify GraphQL Admin API

export interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}

interface GraphqlAnswer {
  data?: Record<string, unknown> | null;
  /** A list of errors; on a 401 or 403, one sentence. */
  errors?: { message?: string; extensions?: { code?: string } }[] | string;
  extensions?: { cost?: { requestedQueryCost?: number; throttleStatus?: ThrottleStatus } };
}

/**
 * How long until the bucket holds what the call costs: (cost − available) ÷ restore rate, in ms
 * (at least the time one point takes to restore). Shopify's cost-based throttle:
 * https://shopify.dev/docs/api/usage/limits#graphql-admin-api-rate-limits
 */
export function bucketWaitMs(cost: number, status: ThrottleStatus): number {
  const missing = Math.max(1, cost - status.currentlyAvailable);
  return Math.ceil((missing / Math.max(0.001, status.restoreRate)) * 1000);
}

export interface ShopifyCall {
  data: Record<string, unknown>;
  /** How long the step waited for the throttle bucket, in ms (0 when it did not). */
  waitedMs: number;
}

/**
 * One GraphQL document to a shop. A throttled answer (HTTP 429, or `THROTTLED` in `errors`)
 * waits for the bucket to hold the call's cost and asks again, up to 3 calls and 5 s of waiting
 * in the step; past that the step fails transiently with the wait as Retry-After, so the engine's
 * durable retry asks again. Other `errors` fail with Shopify's message.
 */
export async function shopifyGraphql(
  shop: string,
  token: string,
  query: string,
  variables: Record<string, unknown>,
): Promise<ShopifyCall> {
  const body = JSON.stringify({ query, variables });
  let waitedMs = 0;
  for (let attempt = 1; ; attempt++) {
    const answer = await exchange(
      "Shopify",
      shop,
      `/admin/api/${SHOPIFY_API_VERSION}/graphql.json`,
      "POST",
      {
        "content-type": "application/json",
        accept: "application/json",
        "user-agent": "Tillflow-Automations/1",
        "x-shopify-access-token": token,
      },
      body,
    );
    let parsed: GraphqlAnswer | null = null;
    try {
      parsed = JSON.parse(answer.body) as GraphqlAnswer;
    } catch {
      parsed = null;
    }
    const errors = Array.isArray(parsed?.errors) ? parsed.errors : [];
    const throttled = answer.status === 429 || errors.some((e) => e.extensions?.code === "THROTTLED");
    if (throttled) {
      const cost = parsed?.extensions?.cost;
      const wait = cost?.throttleStatus
        ? bucketWaitMs(cost.requestedQueryCost ?? 10, cost.throttleStatus)
        : (retryAfterMs(answer.retryAfter) ?? 1_000);
      if (attempt < ATTEMPTS && waitedMs + wait <= MAX_IN_STEP_WAIT_MS) {
        waitedMs += wait;
        await sleep(wait);
        continue;
      }
      throw new StoreApiError(
        `Shopify is busy (its API limit for this shop is used up); trying again in ${Math.ceil(wait / 1000)} s.`,
        { retryAfterMs: wait },
      );
    }
    if (answer.status < 200 || answer.status >= 300) {
      const said = typeof parsed?.errors === "string" ? parsed.errors : (errors[0]?.message ?? null);
      throw httpFailure("Shopify", answer.status, said);
    }
    if (!parsed) throw new StoreApiError("Shopify's answer was not JSON.", {});
    if (errors.length > 0)
      throw new StoreApiError(
        `Shopify refused the call: ${errors.map((e) => e.message ?? "an error").join("; ")}.`,
        null,
      );
    return { data: parsed.data ?? {}, waitedMs };
  }
}

export interface UserError {
  field?: string[] | null;
  message: string;
  code?: string | null;
}

/** Shopify's `userErrors` as one sentence: "Shopify refused it: Tags is invalid." */
export function userErrorSentence(errors: readonly UserError[]): string {
  return `Shopify refused it: ${errors.map((e) => e.message.replace(/\.$/, "")).join("; ")}.`;
}

// ---------------------------------------------------------------------------------------------
// WooCommerce REST API v3

/**
 * One REST call to a WooCommerce store (`/wp-json/wc/v3<path>`), with HTTP Basic auth over
 * https. A 429 is transient with its Retry-After; other non-2xx answers fail with WooCommerce's
 * `message`.
 */
export async function wooRest(
  storeHost: string,
  keyAndSecret: string,
  method: "GET" | "POST" | "PUT",
  path: string,
  payload?: unknown,
): Promise<unknown> {
  const answer = await exchange(
    "WooCommerce",
    storeHost,
    `/wp-json/wc/v3${path}`,
    method,
    {
      accept: "application/json",
      "user-agent": "Tillflow-Automations/1",
      authorization: `Basic ${Buffer.from(keyAndSecret.trim(), "utf8").toString("base64")}`,
      ...(payload !== undefined ? { "content-type": "application/json" } : {}),
    },
    payload !== undefined ? JSON.stringify(payload) : null,
  );
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(answer.body);
  } catch {
    parsed = null;
  }
  if (answer.status === 429)
    throw new StoreApiError("WooCommerce is busy; trying again later.", {
      retryAfterMs: retryAfterMs(answer.retryAfter),
    });
  if (answer.status < 200 || answer.status >= 300) {
    const said =
      typeof parsed === "object" &&
      parsed !== null &&
      "message" in parsed &&
      typeof parsed.message === "string"
        ? parsed.message
        : null;
    throw httpFailure("WooCommerce", answer.status, said);
  }
  return parsed;
}
