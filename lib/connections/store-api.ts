import "server-only";
import { createAdminApiClient, type AdminApiClient } from "@shopify/admin-api-client";
import { config } from "@/lib/config/config";
import { log } from "@/lib/log/logger";
import { RefusedUrlError, type Resolver } from "@/lib/net/guard";
import {
  guardedRequest,
  RedirectError,
  RequestTimeoutError,
  type GuardedRequest,
  type GuardedResponse,
} from "@/lib/net/guarded-request";

/**
 * The two platforms' write APIs (issue 52): Shopify's GraphQL Admin API through Shopify's own
 * client, `@shopify/admin-api-client` (`POST https://<shop>.myshopify.com/admin/api/<version>/graphql.json`,
 * header `X-Shopify-Access-Token`), and WooCommerce's REST API v3 with our own small client
 * (`https://<store>/wp-json/wc/v3/…`, HTTP Basic with the consumer key and secret, https only).
 *
 * Both send through `storeFetch`: every call goes to the store's own host through the outbound
 * guard (no redirects followed: a token never leaves its host; 10 s at most), or, in tests, to
 * `STORE_API_BASE_URL`. No error sentence here carries a header, so the token never reaches a
 * step's record or a log.
 */

/** The Admin API version every call names (pinned; Shopify supports each for a year). */
export const SHOPIFY_API_VERSION = "2026-10";

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

/**
 * How a store call leaves this process. Tests replace the resolver (a host that resolves to a
 * private address) or the guarded request itself (to see the URL and options it is given).
 */
export interface StoreTransport {
  resolve?: Resolver;
  request?: (request: GuardedRequest) => Promise<GuardedResponse>;
}

/** What `fetch`-style callers (Shopify's client) pass: a URL and an init of plain parts. */
interface FetchInit {
  method?: string;
  headers?: HeadersInit;
  body?: BodyInit | null;
  signal?: AbortSignal | null;
}

/** Headers of any shape as one lower-cased record. */
function headerRecord(init: HeadersInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(init).forEach((value, name) => (out[name] = value));
  return out;
}

/** A guarded answer as a WHATWG Response (what Shopify's client reads). */
function asResponse(answer: GuardedResponse): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const empty = answer.status === 204 || answer.status === 205 || answer.status === 304;
  return new Response(empty ? null : answer.body, {
    status: answer.status,
    statusText: answer.statusText,
    headers,
  });
}

/**
 * The fetch every store call goes through: to `url` through the outbound guard (its host resolved
 * and checked, connected to at the checked address, no redirect followed, 10 s), or to the same
 * path on `STORE_API_BASE_URL` (an operator's local stand-in, called as configured, like
 * AI_BASE_URL). A failure is a StoreApiError in plain words, naming the platform and host only.
 */
export function storeFetch(platform: string, transport: StoreTransport = {}) {
  return async (url: string, init: FetchInit = {}): Promise<Response> => {
    const target = new URL(url);
    const method = init.method ?? "GET";
    const headers = headerRecord(init.headers);
    const body = typeof init.body === "string" ? init.body : null;
    const override = config().STORE_API_BASE_URL;
    try {
      if (override) {
        return await fetch(`${override.replace(/\/$/, "")}${target.pathname}${target.search}`, {
          method,
          headers,
          body,
          redirect: "manual",
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
      }
      const answer = await (transport.request ?? guardedRequest)({
        url: target.href,
        method,
        headers,
        body,
        timeoutMs: TIMEOUT_MS,
        maxRedirects: 0,
        ...(transport.resolve ? { resolve: transport.resolve } : {}),
      });
      return asResponse(answer);
    } catch (error) {
      if (error instanceof RefusedUrlError || error instanceof RedirectError)
        throw new StoreApiError(error.message, null);
      if (error instanceof RequestTimeoutError || (error instanceof Error && error.name === "TimeoutError"))
        throw new StoreApiError(`${platform} did not answer within ${TIMEOUT_MS / 1000} s.`, {});
      throw new StoreApiError(`Could not reach ${platform} at ${target.host}.`, {});
    }
  };
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

interface GraphqlError {
  message?: string;
  extensions?: { code?: string };
}

/** The body of an answer Shopify's client did not read (a non-2xx one). */
interface ErrorBody {
  /** A list of errors; on a 401 or 403, one sentence. */
  errors?: GraphqlError[] | string;
  extensions?: Cost;
}

interface Cost {
  cost?: { requestedQueryCost?: number; throttleStatus?: ThrottleStatus };
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

let versionWarned = false;

/**
 * Shopify's client for one shop and token, sending through `storeFetch`. A failure of the fetch
 * (refused by the guard, no answer) is kept in `failure`: the client turns thrown errors into
 * its own sentences, and ours say which are worth trying again.
 */
export function shopifyClient(
  shop: string,
  token: string,
  transport: StoreTransport = {},
): { client: AdminApiClient; failure: () => StoreApiError | null } {
  const send = storeFetch("Shopify", transport);
  let failure: StoreApiError | null = null;
  const client = createAdminApiClient({
    storeDomain: shop,
    apiVersion: SHOPIFY_API_VERSION,
    accessToken: token,
    userAgentPrefix: "Tillflow-Automations/1",
    // Throttling is ours (the bucket's wait, not a fixed second): the client retries nothing.
    retries: 0,
    customFetchApi: async (url, init) => {
      try {
        return await send(url, init);
      } catch (error) {
        failure = error instanceof StoreApiError ? error : new StoreApiError(`Could not reach Shopify.`, {});
        throw failure;
      }
    },
    // The client's log entries carry the request's headers (the token): only the version's
    // notice is kept, without them.
    logger: (entry) => {
      if (entry.type !== "Unsupported_Api_Version" || versionWarned) return;
      versionWarned = true;
      log().warn(
        { apiVersion: SHOPIFY_API_VERSION },
        "Shopify's client counts the pinned Admin API version as out of support; move SHOPIFY_API_VERSION forward",
      );
    },
  });
  return { client, failure: () => failure };
}

/**
 * One GraphQL document to a shop, through Shopify's client. A throttled answer (HTTP 429, or
 * `THROTTLED` in `errors`) waits for the bucket to hold the call's cost and asks again, up to 3
 * calls and 5 s of waiting in the step; past that the step fails transiently with the wait as
 * Retry-After, so the engine's durable retry asks again. Other `errors` fail with Shopify's message.
 */
export async function shopifyGraphql(
  shop: string,
  token: string,
  query: string,
  variables: Record<string, unknown>,
  transport: StoreTransport = {},
): Promise<ShopifyCall> {
  const { client, failure } = shopifyClient(shop, token, transport);
  let waitedMs = 0;
  for (let attempt = 1; ; attempt++) {
    const answer = await client.request<Record<string, unknown>>(query, { variables });
    const failed = failure();
    if (failed) throw failed;
    const status = answer.errors?.networkStatusCode ?? 200;
    // A non-2xx answer is handed back unread: its body says why (and, throttled, the bucket).
    let unread: ErrorBody | null = null;
    if (status < 200 || status >= 300) {
      try {
        unread = JSON.parse((await answer.errors?.response?.text()) ?? "") as ErrorBody;
      } catch {
        unread = null;
      }
    }
    const errors: GraphqlError[] = Array.isArray(unread?.errors)
      ? unread.errors
      : (answer.errors?.graphQLErrors ?? []);
    const throttled = status === 429 || errors.some((e) => e.extensions?.code === "THROTTLED");
    if (throttled) {
      const cost = (unread?.extensions ?? (answer.extensions as Cost | undefined))?.cost;
      const wait = cost?.throttleStatus
        ? bucketWaitMs(cost.requestedQueryCost ?? 10, cost.throttleStatus)
        : (retryAfterMs(answer.errors?.response?.headers.get("retry-after") ?? undefined) ?? 1_000);
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
    if (status < 200 || status >= 300) {
      const said = typeof unread?.errors === "string" ? unread.errors : (errors[0]?.message ?? null);
      throw httpFailure("Shopify", status, said);
    }
    if (errors.length > 0)
      throw new StoreApiError(
        `Shopify refused the call: ${errors.map((e) => e.message ?? "an error").join("; ")}.`,
        null,
      );
    if (answer.errors || !answer.data) throw new StoreApiError("Shopify's answer was not JSON.", {});
    return { data: answer.data, waitedMs };
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
  method: "GET" | "POST" | "PUT" | "DELETE",
  path: string,
  payload?: unknown,
  transport: StoreTransport = {},
): Promise<unknown> {
  const response = await storeFetch("WooCommerce", transport)(`https://${storeHost}/wp-json/wc/v3${path}`, {
    method,
    headers: {
      accept: "application/json",
      "user-agent": "Tillflow-Automations/1",
      authorization: `Basic ${Buffer.from(keyAndSecret.trim(), "utf8").toString("base64")}`,
      ...(payload !== undefined ? { "content-type": "application/json" } : {}),
    },
    body: payload !== undefined ? JSON.stringify(payload) : null,
  });
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(await response.text());
  } catch {
    parsed = null;
  }
  if (response.status === 429)
    throw new StoreApiError("WooCommerce is busy; trying again later.", {
      retryAfterMs: retryAfterMs(response.headers.get("retry-after") ?? undefined),
    });
  if (response.status < 200 || response.status >= 300) {
    const said =
      typeof parsed === "object" &&
      parsed !== null &&
      "message" in parsed &&
      typeof parsed.message === "string"
        ? parsed.message
        : null;
    throw httpFailure("WooCommerce", response.status, said);
  }
  return parsed;
}
