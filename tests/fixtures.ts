import crypto from "node:crypto";
import { createApiKey } from "@/lib/auth/api-keys";
import type { Role } from "@/lib/auth/roles";
import { createTenant, type Tenant } from "@/lib/auth/tenants";

export interface TestShop {
  tenant: Tenant;
  keys: Record<Role, string>;
}

/** A fresh shop with one API key per role. */
export async function createShop(slug = `shop-${crypto.randomBytes(3).toString("hex")}`): Promise<TestShop> {
  const tenant = await createTenant({ slug, name: `Shop ${slug}` });
  const keys = {} as Record<Role, string>;
  for (const role of ["admin", "editor", "viewer"] as const) {
    keys[role] = (await createApiKey(tenant.id, { name: `${role} key`, role })).key;
  }
  return { tenant, keys };
}

type Handler<P> = (req: Request, context: { params: Promise<P> }) => Promise<Response>;

/**
 * Calls a Next.js route handler the way the server would, and returns status and parsed JSON.
 * `B` is the shape the test expects; assertions check it.
 */
export async function call<B = unknown, P extends Record<string, string> = Record<string, string>>(
  handler: Handler<P>,
  options: { method?: string; path?: string; key?: string; body?: unknown; rawBody?: string; params?: P },
): Promise<{ status: number; body: B }> {
  const headers = new Headers({ "content-type": "application/json" });
  if (options.key) headers.set("authorization", `Bearer ${options.key}`);
  const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const req = new Request(`http://test.local${options.path ?? "/"}`, {
    method: options.method ?? "GET",
    headers,
    body,
  });
  const res = await handler(req, { params: Promise.resolve((options.params ?? {}) as P) });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as B };
}
