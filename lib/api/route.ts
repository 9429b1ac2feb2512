import { z } from "zod";
import { assertRole, type Caller } from "@/lib/identity/caller";
import { resolveCaller } from "@/lib/auth/resolve-caller";
import type { Role } from "@/lib/identity/roles";
import { AppError, parseOrThrow, unauthorized } from "@/lib/errors";
import { readBodyText } from "./body";
import { limitApiKey, RateLimitedError } from "@/lib/rate-limit/api";
import { assertSameOriginWrite } from "./same-origin";
import { assertStorableJson, findUnstorable, unstorableError } from "./storable";
import { config } from "@/lib/config/config";
import { log, withLogContext } from "@/lib/log/logger";
import { assertDatabaseReachable, databaseUnavailable, isDatabaseUnavailable } from "@/lib/db/reachability";
import { REQUEST_ID_HEADER, requestIdOf } from "@/lib/log/request-id";
import { forRole } from "@/lib/automations/nodes/editor-only";

/** The largest body a route reads unless it asks for more (`readJsonSized`). `API_MAX_BODY_BYTES`, default 1 MB. */
export const MAX_BODY_BYTES = config().API_MAX_BODY_BYTES;

/**
 * The largest array of events `POST /api/v1/events` reads. `API_MAX_BATCH_BYTES`, default 5 MB: 1,000
 * events with a realistic payload (an order's fields and three line items, about 700 bytes) are
 * about 0.7 MB, and with a 4 KB payload each about 4.2 MB.
 */
export const MAX_BATCH_BYTES = config().API_MAX_BATCH_BYTES;

/** Replies smaller than this go out uncompressed (the `compression` middleware's own threshold). */
const COMPRESS_FROM_BYTES = 1024;

/**
 * A JSON reply. Next.js gzips every route-handler reply it streams, since it drops the length that
 * would let its compressor skip small ones; gzipping a 200-byte reply costs more CPU than it saves
 * bytes (a tenth of the web server's CPU per ingested event), so small replies say `no-transform`,
 * which the compressor honours. Larger ones are compressed as before.
 */
export function json(body: unknown, status = 200): Response {
  const text = JSON.stringify(body);
  const headers = new Headers({ "content-type": "application/json" });
  if (text.length < COMPRESS_FROM_BYTES) headers.set("cache-control", "no-transform");
  return new Response(text, { status, headers });
}

export function errorResponse(error: AppError): Response {
  const body: { error: { code: string; message: string; issues?: unknown } } = {
    error: { code: error.code, message: error.message },
  };
  if (error.issues) body.error.issues = error.issues;
  const response = json(body, error.status);
  if (error instanceof RateLimitedError) response.headers.set("retry-after", String(error.retryAfterSeconds));
  return response;
}

/**
 * The reply to anything a handler threw: an `AppError` as it says; the 503 with its sentence when
 * the database could not be reached (lib/db/reachability.ts); anything else is a bug, logged with
 * `fields` and answered with a 500 that leaks nothing.
 */
export function failureResponse(
  error: unknown,
  logMessage: string,
  fields: Record<string, unknown> = {},
): Response {
  if (error instanceof AppError) return errorResponse(error);
  if (isDatabaseUnavailable(error)) return errorResponse(databaseUnavailable());
  log().error({ err: error, ...fields }, logMessage);
  return errorResponse(
    new AppError(500, "internal", "Something went wrong on our side. It has been logged."),
  );
}

/** The 413 for a body over `maxBytes`; `hint` (a sentence) says what to do instead. */
export const tooLarge = (maxBytes: number, hint = "") =>
  new AppError(
    413,
    "too_large",
    `The request body is larger than ${maxBytes / 1_000_000} MB.${hint ? ` ${hint}` : ""}`,
  );

/**
 * Reads a JSON body of at most `maxBytes` and returns it with its size in bytes, refusing a body
 * too large with a 413 as soon as it passes the limit (lib/api/body.ts) and one that is not JSON
 * with a clear 400.
 */
export async function readJsonSized(
  req: Request,
  { maxBytes = MAX_BODY_BYTES, hint = "" }: { maxBytes?: number; hint?: string } = {},
): Promise<{ value: unknown; bytes: number }> {
  const text = await readBodyText(req, maxBytes, () => tooLarge(maxBytes, hint));
  if (!text.trim()) throw new AppError(400, "bad_request", "The request body is empty; send JSON.");
  return { value: parseJsonText(text), bytes: Buffer.byteLength(text) };
}

function parseJsonText(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError(400, "bad_request", "The request body is not valid JSON.");
  }
  assertStorableJson(text, value);
  return value;
}

/** Reads a JSON body, refusing bodies over 1 MB or not JSON with a clear 400. */
export async function readJson(req: Request): Promise<unknown> {
  return (await readJsonSized(req)).value;
}

/** Like `readJson`, but an empty body is `{}` (for POSTs whose fields are all optional). */
export async function readOptionalJson(req: Request): Promise<unknown> {
  const text = await readBodyText(req, MAX_BODY_BYTES, () => tooLarge(MAX_BODY_BYTES));
  return text.trim() ? parseJsonText(text) : {};
}

/** The query string as a plain object, for a zod schema to parse. */
export function searchParams(req: Request): Record<string, string> {
  const query = Object.fromEntries(new URL(req.url).searchParams);
  const unstorable = findUnstorable(query);
  if (unstorable) throw unstorableError(unstorable);
  return query;
}

/** Reads and validates a JSON body in one step. */
export async function readBody<T extends z.ZodType>(
  req: Request,
  schema: T,
  lead?: string,
): Promise<z.infer<T>> {
  return parseOrThrow(schema, await readJson(req), lead);
}

/** The reply with its request's id in `X-Request-Id` (a copy when its headers are immutable). */
function withRequestId(response: Response, requestId: string): Response {
  try {
    response.headers.set("X-Request-Id", requestId);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    copy.headers.set("X-Request-Id", requestId);
    return copy;
  }
}

/** A `/api/v1` handler as `apiRoute` makes it: a Next.js route handler that knows its minimum role. */
export type ApiHandler<P> = ((req: Request, context: { params: Promise<P> }) => Promise<Response>) & {
  readonly role: Role;
};

interface RouteContext<P> {
  req: Request;
  params: P;
  caller: Caller;
}

/**
 * Wraps a `/api/v1` route handler: resolves the caller (401 if nobody), checks that a write by a
 * session cookie comes from the app's own origin (403, lib/api/same-origin.ts), checks the role (403),
 * counts a write by an API key against its per-minute limit (429, lib/rate-limit/api.ts on lib/rate-limit/index.ts; `limit:
 * "ingest"` counts it as event ingest instead), and turns thrown `AppError`s into `{ error: { code, message, issues? } }`. Anything else is a bug:
 * it is logged and answered with a 500 that leaks nothing.
 */
export function apiRoute<P extends Record<string, string> = Record<string, never>>(
  options: { role: Role; limit?: "ingest" | "write" },
  handler: (ctx: RouteContext<P>) => Promise<unknown>,
): ApiHandler<P> {
  const route = async (req: Request, context: { params: Promise<P> }): Promise<Response> => {
    // The production server has set it (server/edge.ts); `next dev` has not, so it is made here.
    const requestId = requestIdOf(req.headers.get(REQUEST_ID_HEADER));
    const response = await withLogContext({ requestId }, () => answer(req, context));
    return withRequestId(response, requestId);
  };
  const answer = async (req: Request, context: { params: Promise<P> }): Promise<Response> => {
    try {
      assertDatabaseReachable();
      const caller = await resolveCaller(req.headers);
      if (!caller) throw unauthorized();
      assertSameOriginWrite(req, caller);
      assertRole(caller, options.role);
      if (caller.actor.kind === "api_key" && req.method !== "GET" && req.method !== "HEAD")
        await limitApiKey(caller.actor.apiKeyId, options.limit ?? "write");
      const result = await withLogContext({ tenantId: caller.tenant.id }, async () =>
        handler({ req, params: await context.params, caller }),
      );
      // Viewers are answered without editor-only params (a webhook trigger's address).
      return result instanceof Response ? result : json(forRole(result, caller.role));
    } catch (error) {
      const path = new URL(req.url).pathname;
      return failureResponse(error, `Unhandled error in API route ${req.method} ${path}.`, {
        method: req.method,
        path,
      });
    }
  };
  // The role travels with the handler so the OpenAPI contract's roles can be checked against it.
  return Object.assign(route, { role: options.role });
}
