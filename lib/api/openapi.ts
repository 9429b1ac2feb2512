import { z } from "zod";
import { graphSchema } from "@/lib/automations/graph/schema";
import { dryRunInput } from "@/lib/automations/dry-run/dry-run";
import { createInput } from "@/lib/automations/lifecycle/create";
import { draftInput } from "@/lib/automations/lifecycle/save-draft";
import { CONTRACT, type Endpoint } from "./contract";
import { apiErrorShape, docs } from "./shapes";

/*
 * The OpenAPI 3.1 document of `/api/v1`, made from lib/api/contract/ with zod's own
 * `z.toJSONSchema` (JSON Schema 2020-12, which OpenAPI 3.1 uses as is). Requests are described
 * as the schema accepts them (`io: "input"`: defaults make a field optional), replies as they
 * come out. Schemas registered in `docs` (lib/api/shapes.ts) become named components.
 */

type JsonSchema = Record<string, unknown>;
type Io = "input" | "output";

/**
 * Fields a service takes as `unknown` and checks with another schema in a later step (a graph is
 * size-checked before it is parsed, so its errors can say how large it is): documented as that schema.
 */
const CHECKED_LATER = new Map<z.core.$ZodType, z.ZodType>([
  [createInput.shape.graph, graphSchema],
  [draftInput.shape.graph, graphSchema],
  [dryRunInput.shape.graph, graphSchema],
]);

/** Statuses and what they mean here; each route lists those it can answer with. */
const ERRORS = {
  400: [
    "BadRequest",
    "The body is not JSON, or is empty where one is needed, or holds text Postgres cannot store.",
  ],
  401: ["Unauthorized", "No API key, or one that is revoked or unknown."],
  403: [
    "Forbidden",
    "The key's role does not allow this; or a write made with a session cookie (not a key) came without this site's own `Origin`.",
  ],
  404: ["NotFound", "Nothing of that id in this shop (another shop's ids are 404 too)."],
  409: [
    "Conflict",
    "The thing is not in a state that allows this (a built-in, a stale draft, a wait already resumed).",
  ],
  413: ["TooLarge", "The body is over its limit (1 MB; 5 MB for an array of events)."],
  422: ["Invalid", "The body or query is invalid; `issues` names each field at fault, with a sentence."],
  429: ["RateLimited", "Too many writes by this key this minute; `Retry-After` says when to try again."],
  502: [
    "BadGateway",
    "An outside service (the AI builder's model) answered with an error or with something unusable.",
  ],
  503: ["Unavailable", "An outside service is not set up, or is rate limiting us; the sentence says which."],
  504: ["GatewayTimeout", "An outside service did not answer in time."],
} as const;

type ErrorStatus = keyof typeof ERRORS;

/** The error statuses an endpoint can answer with: those its kind implies, plus its own. */
export function errorStatuses(endpoint: Endpoint): ErrorStatus[] {
  const found = new Set<ErrorStatus>(endpoint.errors ?? []);
  if (endpoint.body) [400, 413, 422].forEach((s) => found.add(s as ErrorStatus));
  // A query string that does not parse is a 422; text Postgres cannot store in one is a 400.
  if (endpoint.query) [400, 422].forEach((s) => found.add(s as ErrorStatus));
  if (endpoint.path.includes("{")) found.add(404);
  if (endpoint.role) found.add(401);
  // A viewer's write can still be refused: a cookie-session write needs a same-origin `Origin`.
  if (endpoint.role && (endpoint.role !== "viewer" || endpoint.method !== "GET")) found.add(403);
  // Writes by a key are counted per minute (lib/rate-limit/api.ts); reads are not.
  if (endpoint.role && endpoint.method !== "GET") found.add(429);
  return [...found].sort((a, b) => a - b);
}

/** `/api/v1/automations/{id}/publish` → `postAutomationsByIdPublish`. */
export function operationId(endpoint: Endpoint): string {
  const words = endpoint.path
    .replace("/api/v1/", "")
    .split(/[/.-]/)
    .filter(Boolean)
    .map((w) => (w.startsWith("{") ? `by_${w.slice(1, -1)}` : w))
    .flatMap((w) => w.split("_"));
  return endpoint.method.toLowerCase() + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join("");
}

/** Path parameter names in order: `/a/{id}/b/{version}` → `["id", "version"]`. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
}

class Builder {
  readonly schemas: Record<string, JsonSchema> = {};

  /** The JSON Schema of `schema`, with named parts moved to `components.schemas` and referenced. */
  convert(schema: z.ZodType, io: Io): JsonSchema {
    const json = z.toJSONSchema(schema, {
      io,
      metadata: docs,
      unrepresentable: "any",
      override: (ctx) => this.tidy(ctx.zodSchema, ctx.jsonSchema as JsonSchema, io),
    }) as JsonSchema;
    const { $defs, $schema: _draft, ...rest } = json;
    const defs = Object.entries(($defs ?? {}) as Record<string, JsonSchema>);
    // A reply's form is named by its id, a request's `<id>Input` (defaults make fields optional).
    const renamed = new Map(defs.map(([id]) => [id, io === "input" ? `${id}Input` : id]));
    for (const [id, def] of defs) this.add(renamed.get(id)!, rewriteRefs(def, renamed) as JsonSchema);
    return rewriteRefs(rest, renamed) as JsonSchema;
  }

  private add(name: string, def: JsonSchema): void {
    const existing = this.schemas[name];
    if (existing && JSON.stringify(existing) !== JSON.stringify(def))
      throw new Error(`Two different schemas are named ${name}`);
    this.schemas[name] = def;
  }

  /** Readability: drop zod's generated twins of a `format` and the safe-integer bounds. */
  private tidy(zodSchema: z.core.$ZodType, json: JsonSchema, io: Io): void {
    const later = CHECKED_LATER.get(zodSchema);
    if (later) {
      const ref = this.convert(later, io);
      for (const key of Object.keys(json)) delete json[key];
      Object.assign(json, ref);
      return;
    }
    if (typeof json.format === "string" && typeof json.pattern === "string") delete json.pattern;
    if (json.maximum === Number.MAX_SAFE_INTEGER) delete json.maximum;
    if (json.minimum === Number.MIN_SAFE_INTEGER) delete json.minimum;
  }
}

/** Points `#/$defs/<id>` at `#/components/schemas/<name>`. */
function rewriteRefs(value: unknown, renamed: Map<string, string>): unknown {
  if (Array.isArray(value)) return value.map((v) => rewriteRefs(v, renamed));
  if (!value || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => {
      if (key === "$ref" && typeof v === "string" && v.startsWith("#/$defs/")) {
        const id = v.slice("#/$defs/".length);
        return [key, `#/components/schemas/${renamed.get(id) ?? id}`];
      }
      return [key, rewriteRefs(v, renamed)];
    }),
  );
}

function parameters(endpoint: Endpoint, builder: Builder): JsonSchema[] {
  const path = pathParams(endpoint.path).map((name) => {
    const schema = endpoint.params?.[name];
    return {
      name,
      in: "path",
      required: true,
      schema: schema ? builder.convert(schema, "input") : { type: "string" },
    };
  });
  if (!endpoint.query) return path;
  const query = builder.convert(endpoint.query, "input");
  const required = new Set((query.required ?? []) as string[]);
  const properties = (query.properties ?? {}) as Record<string, JsonSchema>;
  return [
    ...path,
    ...Object.entries(properties).map(([name, schema]) => ({
      name,
      in: "query",
      required: required.has(name),
      schema,
    })),
  ];
}

function operation(endpoint: Endpoint, builder: Builder): JsonSchema {
  const op: JsonSchema = {
    operationId: operationId(endpoint),
    summary: endpoint.summary,
    tags: [endpoint.tag],
    description: [
      endpoint.description,
      endpoint.role ? `Needs a key with the **${endpoint.role}** role or above.` : "Public: no key needed.",
    ]
      .filter(Boolean)
      .join("\n\n"),
    "x-tillflow-role": endpoint.role,
  };
  const params = parameters(endpoint, builder);
  if (params.length > 0) op.parameters = params;
  if (endpoint.body) {
    const media: JsonSchema = { schema: builder.convert(endpoint.body, "input") };
    if (endpoint.example !== undefined) media.example = endpoint.example;
    op.requestBody = {
      required: !endpoint.bodyOptional,
      content: { "application/json": media },
    };
  }
  const ok: JsonSchema = { description: endpoint.ok.description };
  if (endpoint.ok.schema)
    ok.content = { "application/json": { schema: builder.convert(endpoint.ok.schema, "output") } };
  const responses: JsonSchema = { [String(endpoint.ok.status)]: ok };
  for (const status of errorStatuses(endpoint))
    responses[String(status)] = { $ref: `#/components/responses/${ERRORS[status][0]}` };
  op.responses = responses;
  if (!endpoint.role) op.security = [];
  return op;
}

const TAGS: Record<Endpoint["tag"], string> = {
  Automations: "Flows: drafts, versions, publishing, pausing, dry runs and schedules.",
  Runs: "What each automation did, step by step.",
  "Waits and approvals": "Runs waiting for a time, a later step or a decision.",
  "Entities and events": "The shop's records, and the events that trigger automations.",
  Work: "Staff tasks, the outbox and schedule previews.",
  Credentials:
    "The shop's secrets, which flows refer to by id: write-only, shown by name and last 4 characters.",
  "Store connections":
    "Shopify and WooCommerce stores posting their webhooks to `/api/connect/<platform>/<token>`, and what each delivery did.",
  Alerts:
    "Rules that tell the shop's staff (email), Slack or a signed webhook when runs fail, go quiet, storm or wait too long; and what was sent.",
  Teams: "Teams of the shop's staff (Finance, Warehouse), which an Approval step's quorum may ask.",
  Meta: "The audit log, the step registry and this document.",
};

/** The OpenAPI 3.1 document of `endpoints` (by default, the whole `/api/v1` contract). */
export function buildOpenApi(endpoints: readonly Endpoint[] = CONTRACT): JsonSchema {
  const builder = new Builder();
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const endpoint of endpoints) {
    const item = (paths[endpoint.path] ??= {});
    if (item[endpoint.method.toLowerCase()])
      throw new Error(`${endpoint.method} ${endpoint.path} is in the contract twice`);
    item[endpoint.method.toLowerCase()] = operation(endpoint, builder);
  }
  const error = builder.convert(apiErrorShape, "output");
  const responses = Object.fromEntries(
    Object.entries(ERRORS).map(([status, [name, description]]) => {
      const response: JsonSchema = { description, content: { "application/json": { schema: error } } };
      if (status === "429")
        response.headers = {
          "Retry-After": { description: "Seconds until the next minute.", schema: { type: "integer" } },
        };
      return [name, response];
    }),
  );
  return {
    openapi: "3.1.1",
    info: {
      title: "Tillflow API",
      version: "1",
      description:
        "Everything a user can do in the admin, over HTTP: JSON in and out, authenticated with a shop's API key (`Authorization: Bearer tf_…`, made in Settings → API keys). Errors are `{ error: { code, message, issues? } }`. Lists are `{ items, nextCursor }`: pass `nextCursor` back as `cursor`. Another shop's ids are 404.",
    },
    servers: [{ url: "/" }],
    security: [{ apiKey: [] }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    paths,
    components: {
      securitySchemes: {
        apiKey: {
          type: "http",
          scheme: "bearer",
          description: "A shop's API key (`tf_…`); its role (viewer, editor, admin) decides what it may do.",
        },
      },
      schemas: builder.schemas,
      responses,
    },
  };
}
