import { z } from "zod";

export type ErrorCode =
  | "bad_request"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "invalid"
  | "too_large"
  | "rate_limited"
  | "internal"
  /** An outside service (the AI builder's model) answered with an error or nonsense: 502. */
  | "provider_error"
  /** An outside service is not set up or is refusing work for now: 503. */
  | "unavailable"
  /** An outside service did not answer in time: 504. */
  | "timeout";

export interface Issue {
  path?: string;
  nodeId?: string;
  edgeId?: string;
  message: string;
}

/**
 * An error meant for the caller: a status, a stable code and a sentence a merchant can act on.
 * Anything else thrown is a bug and is answered with a generic 500.
 */
export class AppError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 422 | 429 | 500 | 502 | 503 | 504,
    readonly code: ErrorCode,
    message: string,
    readonly issues?: Issue[],
  ) {
    super(message);
    this.name = "AppError";
  }
}

export const notFound = (what: string) => new AppError(404, "not_found", `${what} was not found.`);
export const forbidden = (message = "Your role does not allow this change.") =>
  new AppError(403, "forbidden", message);
export const unauthorized = () =>
  new AppError(401, "unauthorized", "Sign in, or send an API key as 'Authorization: Bearer <key>'.");

/** Turns zod's issues into sentences that name the field. */
export function zodIssues(error: z.ZodError): Issue[] {
  return error.issues.map((issue) => {
    const path = issue.path.map(String).join(".");
    return { path: path || undefined, message: path ? `${path}: ${issue.message}` : issue.message };
  });
}

export function invalid(error: z.ZodError, lead = "The request is invalid"): AppError {
  const issues = zodIssues(error);
  return new AppError(422, "invalid", `${lead}: ${issues.map((i) => i.message).join("; ")}.`, issues);
}

/** Parses `input` with `schema`, or throws a 422 whose message names every bad field. */
export function parseOrThrow<T extends z.ZodType>(schema: T, input: unknown, lead?: string): z.infer<T> {
  const result = schema.safeParse(input);
  if (!result.success) throw invalid(result.error, lead);
  return result.data;
}

const uuid = z.uuid();

/** Ids in URLs are untrusted: a malformed one is simply not found, never a database error. */
export function isUuid(value: string): boolean {
  return uuid.safeParse(value).success;
}

/** What a caught value says: an Error's message, anything else as text. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
