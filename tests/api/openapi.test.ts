import crypto from "node:crypto";
import { Validator } from "@seriousme/openapi-schema-validator";
import { beforeAll, describe, expect, test } from "vitest";
import { GET as openApiRoute } from "@/app/api/v1/openapi.json/route";
import { CONTRACT, type Endpoint } from "@/lib/api/contract";
import { buildOpenApi, pathParams } from "@/lib/api/openapi";
import type { Role } from "@/lib/identity/roles";
import { builtinAutomation, ensureBuiltins } from "@/lib/automations/schedules/builtins";
import { upsertEntity } from "@/lib/entities/service";
import { call, type ErrorReply } from "@/tests/helpers/fixtures";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { flow, publishFlow } from "@/tests/helpers/flows";
import { routeHandlers, type Handler } from "@/tests/helpers/route-handlers";

/*
 * The OpenAPI document (lib/api/contract/ → lib/api/openapi.ts) against the routes themselves:
 * it is valid OpenAPI 3.1; it documents every route and method and nothing else; each role is the
 * handler's own; and a body the document calls valid is accepted by the real handler on a real
 * database, while one it calls invalid is refused. Viewers' 403s on every change are proven route by
 * route in tests/api/route-guards.test.ts; here the contract's roles are compared with the handlers'.
 */

const RANK: Record<Role, number> = { viewer: 0, editor: 1, admin: 2 };

type JsonSchema = Record<string, unknown>;

const doc = buildOpenApi();
const schemas = (doc.components as { schemas: Record<string, JsonSchema> }).schemas;
const key = (e: { method: string; path: string }) => `${e.method} ${e.path}`;

/** A value the schema accepts, made from the schema alone; undefined where it cannot guess (a pattern). */
function sample(schema: JsonSchema): unknown {
  if (typeof schema.$ref === "string") return sample(schemas[schema.$ref.split("/").pop()!]!);
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (Array.isArray(schema.anyOf)) return sample(schema.anyOf[0] as JsonSchema);
  if (Array.isArray(schema.oneOf)) return sample(schema.oneOf[0] as JsonSchema);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  switch (type) {
    case "object": {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const out: Record<string, unknown> = {};
      for (const name of (schema.required ?? []) as string[]) {
        const value = sample(properties[name] ?? {});
        if (value === undefined) return undefined;
        out[name] = value;
      }
      return out;
    }
    case "array": {
      const item = sample((schema.items ?? {}) as JsonSchema);
      return item === undefined
        ? undefined
        : Array.from({ length: Number(schema.minItems ?? 0) }, () => item);
    }
    case "string": {
      if (schema.format === "uuid") return crypto.randomUUID();
      if (schema.format === "date-time") return new Date().toISOString();
      if (schema.format === "date") return "2026-01-15";
      if (schema.pattern) return undefined;
      return "x".repeat(Math.max(1, Number(schema.minLength ?? 1)));
    }
    case "integer":
    case "number":
      return Number(schema.minimum ?? 1);
    case "boolean":
      return true;
    default:
      return {};
  }
}

/** The same body with one field of the wrong type (a required one where there is one). */
function broken(schema: JsonSchema, valid: unknown): unknown {
  const resolved = typeof schema.$ref === "string" ? schemas[schema.$ref.split("/").pop()!]! : schema;
  if (!valid || typeof valid !== "object" || Array.isArray(valid)) return "not an object";
  const fields = Object.keys(valid);
  const properties = Object.keys((resolved.properties ?? {}) as JsonSchema);
  const required = (resolved.required ?? []) as string[];
  const name = required.find((r) => fields.includes(r)) ?? fields[0] ?? properties[0];
  if (!name) return ["not an object"];
  const value = (valid as Record<string, unknown>)[name];
  const property = ((resolved.properties ?? {}) as Record<string, JsonSchema>)[name];
  const isString = value === undefined ? property?.type === "string" : typeof value === "string";
  return { ...valid, [name]: isString ? 12345 : "not the right type" };
}

/** The body schema of an endpoint in the document. */
function bodySchema(e: Endpoint): JsonSchema {
  const op = (doc.paths as Record<string, Record<string, JsonSchema>>)[e.path]![e.method.toLowerCase()]!;
  const body = op.requestBody as { content: { "application/json": { schema: JsonSchema } } };
  return body.content["application/json"].schema;
}

let shop: TestShop;
let handlers: Map<string, Handler>;
const ids = { automation: "", builtin: "" };

beforeAll(async () => {
  shop = await createShop();
  handlers = await routeHandlers();
  //  order_paid ──▶ add_tag(paid)
  //  later(check-in) ──▶ create_task(Check in)
  ids.automation = await publishFlow(
    shop.keys.editor,
    "Documented",
    flow(
      [
        { id: "t", type: "auto.trigger.order_paid" },
        { id: "tag", type: "auto.action.add_tag", params: { tag: "paid" } },
        { id: "back", type: "auto.trigger.later", params: { step: "check-in" } },
        { id: "task", type: "auto.action.create_task", params: { title: "Check in" } },
      ],
      [
        ["t", "tag"],
        ["back", "task"],
      ],
    ),
  );
  await ensureBuiltins(shop.tenant.id);
  ids.builtin = (await builtinAutomation(shop.tenant.id, "mark-carts-abandoned"))!.id;
  // The record the contract's examples name (README's ord_9001).
  const order = { number: "#9001", status: "pending", total: 25, currency: "EUR" };
  await upsertEntity(shop.tenant.id, "order", "ord_9001", order, "test");
});

/** Real path parameters for an endpoint: this shop's records where the route needs one. */
function paramsFor(e: Endpoint): Record<string, string> {
  const params: Record<string, string> = {};
  for (const name of pathParams(e.path)) params[name] = crypto.randomUUID();
  if (e.path.startsWith("/api/v1/automations/{id}"))
    params.id = /run-now|reset-to-builtin/.test(e.path) ? ids.builtin : ids.automation;
  if (e.path.startsWith("/api/v1/entities/")) Object.assign(params, { domain: "order", id: "ord_9001" });
  if (params.version) params.version = "1";
  return params;
}

function invoke(
  e: Endpoint,
  options: { key?: string; body?: unknown; params?: Record<string, string>; query?: string },
) {
  const handler = handlers.get(key(e));
  if (!handler) throw new Error(`No handler for ${key(e)}`);
  return call<unknown>(handler, {
    method: e.method,
    path: `${e.path}${options.query ?? ""}`,
    key: options.key,
    body: options.body,
    params: options.params ?? paramsFor(e),
  });
}

describe("the OpenAPI document", () => {
  test("is valid OpenAPI 3.1, every $ref resolves, and it is served without a key", async () => {
    const result = await new Validator().validate(structuredClone(doc));
    expect(result.errors ?? [], JSON.stringify(result.errors ?? []).slice(0, 2000)).toEqual([]);
    expect(result.valid).toBe(true);
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
    const missing = refs
      .map((r) => r.slice('"$ref":"'.length, -1))
      .filter((ref) => {
        const [, section, name] = ref.match(/^#\/components\/(\w+)\/(\w+)$/) ?? [];
        return !section || !(doc.components as Record<string, JsonSchema>)[section]?.[name!];
      });
    expect(missing).toEqual([]);

    const operationIds = Object.values(doc.paths as Record<string, Record<string, JsonSchema>>).flatMap(
      (item) => Object.values(item).map((op) => op.operationId),
    );
    expect(new Set(operationIds).size).toBe(operationIds.length);

    const served = await call<typeof doc>(openApiRoute, { path: "/api/v1/openapi.json" });
    expect(served.status).toBe(200);
    expect(served.body).toEqual(JSON.parse(JSON.stringify(doc)));
  });

  test("documents every route and method of app/api/v1, and nothing else", async () => {
    const routes = [...handlers.keys()].sort();
    expect(routes.length).toBeGreaterThan(30);
    const documented = Object.entries(doc.paths as Record<string, JsonSchema>)
      .flatMap(([p, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`))
      .sort();
    expect(
      routes.filter((r) => !documented.includes(r)),
      "Add these routes to their resource's file in lib/api/contract/",
    ).toEqual([]);
    expect(
      documented.filter((r) => !routes.includes(r)),
      "These contract entries name no route",
    ).toEqual([]);
  });

  test("each route's role is its handler's, and the handler enforces it", async () => {
    const disagree = CONTRACT.filter((e) => (handlers.get(key(e))?.role ?? null) !== e.role).map(
      (e) => `${key(e)}: contract ${e.role}, handler ${handlers.get(key(e))?.role ?? "none"}`,
    );
    expect(disagree).toEqual([]);

    const failures: string[] = [];
    for (const e of CONTRACT) {
      if (!e.role) continue;
      const body = e.method === "GET" ? undefined : (e.example ?? {});
      const anonymous = await invoke(e, { body });
      if (anonymous.status !== 401) failures.push(`${key(e)} without a key: ${anonymous.status}`);
      // Random ids: the role is checked before anything is looked up.
      for (const role of ["viewer", "editor"] as const) {
        if (RANK[role] >= RANK[e.role]) continue;
        const reply = await invoke(e, {
          key: shop.keys[role],
          body,
          params: Object.fromEntries(pathParams(e.path).map((p) => [p, crypto.randomUUID()])),
        });
        if (reply.status !== 403) failures.push(`${key(e)} as ${role}: ${reply.status}`);
      }
    }
    expect(failures).toEqual([]);
  });

  test("a body the document calls valid is accepted, and one with a field of the wrong type is refused", async () => {
    const failures: string[] = [];
    const withBody = CONTRACT.filter((e) => e.body);
    expect(withBody.length).toBeGreaterThan(8);
    for (const e of withBody) {
      const schema = bodySchema(e);
      const generated = sample(schema);
      const bodies = [e.example, generated].filter((b) => b !== undefined);
      if (bodies.length === 0) failures.push(`${key(e)}: declare an example (its schema has a pattern)`);
      for (const body of bodies) {
        const reply = await invoke(e, { key: shop.keys.admin, body });
        const text = `${JSON.stringify(body)} → ${reply.status} ${JSON.stringify(reply.body).slice(0, 300)}`;
        // A decision is parsed before its wait is looked up; a pending approval needs a worker. A
        // later step made up from the schema is one the automation has no Later trigger for (422).
        const ok =
          reply.status < 300 ||
          (e.path === "/api/v1/approvals/{waitId}" && reply.status === 404) ||
          // A re-run's body is parsed before its run is looked up; these ids name no run.
          (e.path === "/api/v1/runs/{id}/rerun" && reply.status === 404) ||
          (e.path.endsWith("/try-later") && body !== e.example && reply.status === 422) ||
          // A credential's value must suit its kind ('Name: value' for a header), which a schema
          // cannot say; and these ids name no credential.
          (e.path === "/api/v1/credentials" && body !== e.example && reply.status === 422) ||
          (e.path === "/api/v1/credentials/{id}" && reply.status === 404) ||
          // These ids name no alert rule.
          (e.path === "/api/v1/alerts/{id}" && reply.status === 404) ||
          // Members must be the shop's staff, which a schema cannot say; these ids name no team.
          (e.path === "/api/v1/teams" && body !== e.example && reply.status === 422) ||
          (e.path === "/api/v1/teams/{id}" && reply.status === 404) ||
          // A connection's key is parsed (its shape) before the connection is looked up; these ids
          // name none.
          (e.path === "/api/v1/connections/{id}/writes" && reply.status === 404) ||
          // A re-subscribe's reason is parsed before its customer is looked up; these ids name none.
          (e.path === "/api/v1/customers/{id}/resubscribe" && reply.status === 404) ||
          // The branch is read first; this automation has no split by that id (send-down.test.ts has one).
          (e.path.endsWith("/send-down") && reply.status === 422 && text.includes("has no split")) ||
          // No model is set up here (tests/ai/build.test.ts has one): the body was read, then 503.
          (e.path === "/api/v1/ai/build" && reply.status === 503);
        if (!ok) failures.push(`${key(e)}: valid ${text}`);
        if (reply.status < 300 && e.ok.schema) {
          const parsed = e.ok.schema.safeParse(reply.body);
          if (!parsed.success)
            failures.push(`${key(e)}: reply disagrees with its schema: ${parsed.error.message}`);
        }
      }
      const bad = broken(schema, bodies[0] ?? {});
      const reply = await invoke(e, { key: shop.keys.admin, body: bad });
      const { error } = (reply.body ?? {}) as Partial<ErrorReply>;
      if (
        ![400, 422].includes(reply.status) ||
        typeof error?.code !== "string" ||
        typeof error.message !== "string"
      )
        failures.push(
          `${key(e)}: invalid ${JSON.stringify(bad)} → ${reply.status} ${JSON.stringify(reply.body)}`,
        );
    }
    expect(failures).toEqual([]);
  });

  test("a query the document calls invalid is refused with 422", async () => {
    const failures: string[] = [];
    const withQuery = CONTRACT.filter((e) => e.query);
    expect(withQuery.length).toBeGreaterThan(5);
    for (const e of withQuery) {
      const op = (doc.paths as Record<string, Record<string, { parameters: JsonSchema[] }>>)[e.path]![
        e.method.toLowerCase()
      ]!;
      // A number or a choice is easy to get wrong in a URL; every list takes `limit`.
      const param = op.parameters.find((p) => {
        const schema = p.schema as JsonSchema;
        return p.in === "query" && (schema.type === "integer" || Array.isArray(schema.enum));
      });
      if (!param) {
        failures.push(`${key(e)}: no integer or enum parameter to get wrong`);
        continue;
      }
      const reply = await invoke(e, { key: shop.keys.admin, query: `?${String(param.name)}=not-valid` });
      if (reply.status !== 422) failures.push(`${key(e)} ?${String(param.name)}=not-valid → ${reply.status}`);
    }
    expect(failures).toEqual([]);
  });

  test("replies of the reads agree with their documented shapes", async () => {
    const failures: string[] = [];
    for (const e of CONTRACT.filter((x) => x.method === "GET" && x.role)) {
      const reply = await invoke(e, { key: shop.keys.admin });
      const random = pathParams(e.path).length > 0 && !/automations|entities/.test(e.path);
      if (reply.status !== (random ? 404 : 200)) {
        failures.push(`${key(e)}: ${reply.status} ${JSON.stringify(reply.body).slice(0, 300)}`);
        continue;
      }
      const schema = reply.status === 200 ? e.ok.schema : undefined;
      const parsed = schema?.safeParse(reply.body);
      if (parsed && !parsed.success) failures.push(`${key(e)}: ${parsed.error.message}`);
    }
    expect(failures).toEqual([]);
  });

  test("replies of the changes that take no body agree with their documented shapes", async () => {
    const failures: string[] = [];
    const changes = [
      `POST /api/v1/automations/{id}/pause`,
      `POST /api/v1/automations/{id}/activate`,
      `POST /api/v1/automations/{id}/waiting/cancel-all`,
      `POST /api/v1/waiting/cancel-all`,
    ];
    for (const name of changes) {
      const e = CONTRACT.find((x) => key(x) === name)!;
      const reply = await invoke(e, { key: shop.keys.admin });
      const parsed = e.ok.schema?.safeParse(reply.body);
      if (reply.status !== e.ok.status || !parsed?.success)
        failures.push(
          `${name}: ${reply.status} ${JSON.stringify(reply.body).slice(0, 200)} ${parsed?.error?.message}`,
        );
    }
    expect(failures).toEqual([]);
  });
});
