import "server-only";
import { eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { tenants } from "@/lib/db/schema";
import { findApiKey } from "./api-keys";
import { getAuth } from "./auth";
import type { Caller } from "@/lib/identity/caller";
import { membershipsOf } from "./users";

/** The cookie that carries the shop a person who works for several has chosen. */
export const TENANT_COOKIE = "tillflow_tenant";

async function loadTenant(id: string) {
  const [row] = await getDb()
    .select({ id: tenants.id, slug: tenants.slug, name: tenants.name, timezone: tenants.timezone })
    .from(tenants)
    .where(eq(tenants.id, id));
  return row ?? null;
}

function bearerToken(headers: Headers): string | null {
  const header = headers.get("authorization");
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  return match?.[1] ?? null;
}

function cookieValue(headers: Headers, name: string): string | null {
  for (const part of (headers.get("cookie") ?? "").split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return decodeURIComponent(rest.join("="));
  }
  return null;
}

/**
 * Resolves the caller from an API key (`Authorization: Bearer`) or the session cookie.
 * Returns null when neither identifies anyone; a presented but unknown key also returns null.
 */
export async function resolveCaller(headers: Headers): Promise<Caller | null> {
  const token = bearerToken(headers);
  if (token) {
    const key = await findApiKey(token);
    if (!key) return null;
    return {
      tenant: key.tenant,
      role: key.role,
      actor: { kind: "api_key", apiKeyId: key.id, prefix: key.prefix },
    };
  }
  const session = await getAuth().api.getSession({ headers });
  if (!session) return null;
  const memberships = await membershipsOf(session.user.id);
  // A person who works for several shops picks one; the choice rides in a cookie, checked here.
  const chosen = cookieValue(headers, TENANT_COOKIE);
  const membership = memberships.find((m) => m.tenantId === chosen) ?? memberships[0];
  const tenant = membership && (await loadTenant(membership.tenantId));
  if (!membership || !tenant) return null;
  return {
    tenant,
    role: membership.role,
    actor: { kind: "user", userId: session.user.id, email: session.user.email, name: session.user.name },
  };
}
