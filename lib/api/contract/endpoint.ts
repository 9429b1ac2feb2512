import { z } from "zod";
import type { Role } from "@/lib/identity/roles";

/** One endpoint of the public REST contract (lib/api/contract/index.ts). */
export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export type Tag =
  | "Automations"
  | "Runs"
  | "Waits and approvals"
  | "Entities and events"
  | "Work"
  | "Credentials"
  | "Store connections"
  | "Alerts"
  | "Teams"
  | "Meta";

/** Statuses an endpoint may answer with besides the ones its kind implies (see `errorStatuses`). */
export type ExtraError = 403 | 409 | 422 | 502 | 503 | 504;

export interface Endpoint {
  method: Method;
  /** OpenAPI style: `/api/v1/automations/{id}`. */
  path: `/api/v1/${string}`;
  summary: string;
  /** Markdown, shown under the summary. */
  description?: string;
  tag: Tag;
  /** The least role that may call it, as in the handler's `apiRoute({ role })`; null: no key needed. */
  role: Role | null;
  /** Path parameters that are not plain strings (default: a string). */
  params?: Record<string, z.ZodType>;
  query?: z.ZodType;
  /** The JSON body's schema: the very object the service parses it with. */
  body?: z.ZodType;
  /** An empty body is read as `{}` (every field is optional). */
  bodyOptional?: true;
  /** A valid body, shown in the document (and sent by the tests instead of one made from the schema). */
  example?: unknown;
  ok: { status: 200 | 201 | 202 | 204; description: string; schema?: z.ZodType };
  errors?: readonly ExtraError[];
}
