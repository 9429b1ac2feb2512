import { hasRole, type Role } from "@/lib/identity/roles";
import { registry as defaultRegistry, type Registry } from "./registry";

/**
 * Params only editors and admins see (a node definition's `editorOnlyParams`: a webhook trigger's
 * token, which is its address), taken out of whatever a viewer is answered. Applied where replies
 * leave the server — the REST API (lib/api/route.ts), MCP (lib/mcp/server.ts) and the pages that
 * hand graphs to the browser — so a new route or field cannot forget it: every node in the reply,
 * however deep (a draft, a version, a run's graph, a diff), is found by its shape `{ type, params }`.
 * A viewer still sees that the node exists and what it does, not how to call it.
 */
export function forRole<T>(value: T, role: Role, registry: Registry = defaultRegistry): T {
  if (hasRole(role, "editor")) return value;
  return strip(value, registry) as T;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function strip(value: unknown, registry: Registry): unknown {
  if (Array.isArray(value)) return value.map((item) => strip(item, registry));
  // Dates, buffers and other class instances carry no graph: kept as they are, for JSON to shape.
  if (!isRecord(value)) return value;
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) out[key] = strip(child, registry);
  const hidden = typeof value.type === "string" ? registry.get(value.type)?.editorOnlyParams : undefined;
  if (hidden && isRecord(out.params)) {
    const params = { ...out.params };
    for (const name of hidden) delete params[name];
    out.params = params;
  }
  return out;
}
