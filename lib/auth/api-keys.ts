import crypto from "node:crypto";
import { and, desc, eq, isNull } from "drizzle-orm";
import { recordAudit } from "@/lib/audit";
import { getDb } from "@/lib/db/client";
import { apiKeys, tenants } from "@/lib/db/schema";
import { isUuid, notFound } from "@/lib/errors";
import { KeyCache } from "./key-cache";
import type { Role } from "@/lib/identity/roles";
import type { StaffChanger } from "./users";

const KEY_PREFIX = "tf_";

export function hashApiKey(key: string): string {
  return crypto.createHash("sha256").update(key).digest("hex");
}

export interface ApiKeySummary {
  id: string;
  name: string;
  prefix: string;
  role: Role;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

const summaryColumns = {
  id: apiKeys.id,
  name: apiKeys.name,
  prefix: apiKeys.prefix,
  role: apiKeys.role,
  createdAt: apiKeys.createdAt,
  lastUsedAt: apiKeys.lastUsedAt,
  revokedAt: apiKeys.revokedAt,
};

/**
 * Creates a key and returns it in full; this is the only time the full key exists outside the caller.
 * Given a `Caller`, the key belongs to its shop and the creation is recorded in the audit log.
 */
export async function createApiKey(
  by: StaffChanger,
  input: { name: string; role: Role; createdBy?: string | null },
): Promise<{ key: string; apiKey: ApiKeySummary }> {
  const key = `${KEY_PREFIX}${crypto.randomBytes(24).toString("base64url")}`;
  return getDb().transaction(async (tx) => {
    const [apiKey] = await tx
      .insert(apiKeys)
      .values({
        tenantId: typeof by === "string" ? by : by.tenant.id,
        name: input.name,
        role: input.role,
        prefix: key.slice(0, 10),
        keyHash: hashApiKey(key),
        createdBy: input.createdBy ?? null,
      })
      .returning(summaryColumns);
    if (typeof by !== "string") await recordAudit(tx, by, keyEvent("api_key.created", apiKey!));
    return { key, apiKey: apiKey! };
  });
}

function keyEvent(action: string, apiKey: Pick<ApiKeySummary, "id" | "name" | "prefix" | "role">) {
  return {
    action,
    subjectType: "api_key",
    subjectId: apiKey.id,
    detail: { name: apiKey.name, prefix: apiKey.prefix, role: apiKey.role },
  };
}

export async function listApiKeys(tenantId: string): Promise<ApiKeySummary[]> {
  return getDb()
    .select(summaryColumns)
    .from(apiKeys)
    .where(eq(apiKeys.tenantId, tenantId))
    .orderBy(desc(apiKeys.createdAt));
}

export async function revokeApiKey(by: StaffChanger, id: string): Promise<void> {
  if (!isUuid(id)) throw notFound("That API key");
  const tenantId = typeof by === "string" ? by : by.tenant.id;
  await getDb().transaction(async (tx) => {
    const rows = await tx
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(and(eq(apiKeys.tenantId, tenantId), eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
      .returning(summaryColumns);
    if (rows.length === 0) throw notFound("That API key");
    if (typeof by !== "string") await recordAudit(tx, by, keyEvent("api_key.revoked", rows[0]!));
  });
  // Effective at once in this process; other processes stop trusting it within KEY_CACHE_MS.
  liveKeys().forget(id);
}

/** A live key and the shop it belongs to. */
export interface LiveApiKey {
  id: string;
  tenantId: string;
  role: Role;
  prefix: string;
  tenant: { id: string; slug: string; name: string; timezone: string };
}

// On globalThis: Next.js may load this module once per server bundle (route handlers, server
// actions), and a revocation in one must reach the cache the others read.
const holder = globalThis as unknown as { __tillflowLiveKeys?: KeyCache<LiveApiKey> };
function liveKeys(): KeyCache<LiveApiKey> {
  holder.__tillflowLiveKeys ??= new KeyCache<LiveApiKey>();
  return holder.__tillflowLiveKeys;
}

/**
 * Forgets this process's remembered keys of one shop: their entries carry the shop's name and time
 * zone, which the shop's settings just changed. Other processes see the change within KEY_CACHE_MS;
 * what is written with a zone (a built-in's schedule) reads it from the database instead.
 */
export function forgetShopKeys(tenantId: string): void {
  liveKeys().forgetWhere((key) => key.tenantId === tenantId);
}

/**
 * Looks up a live key by its hash, with its shop (one query), trusting a recent answer for a few
 * seconds (see key-cache.ts). Returns null for unknown or revoked keys.
 */
export async function findApiKey(key: string): Promise<LiveApiKey | null> {
  if (!key.startsWith(KEY_PREFIX)) return null;
  const hash = hashApiKey(key);
  const cached = liveKeys().get(hash);
  if (cached) return cached;
  const [row] = await getDb()
    .select({
      id: apiKeys.id,
      tenantId: apiKeys.tenantId,
      role: apiKeys.role,
      prefix: apiKeys.prefix,
      lastUsedAt: apiKeys.lastUsedAt,
      tenant: { id: tenants.id, slug: tenants.slug, name: tenants.name, timezone: tenants.timezone },
    })
    .from(apiKeys)
    .innerJoin(tenants, eq(tenants.id, apiKeys.tenantId))
    .where(and(eq(apiKeys.keyHash, hash), isNull(apiKeys.revokedAt)));
  if (!row) return null;
  // Touch last-used at most once a minute so hot API traffic does not write on every request.
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > 60_000) {
    await getDb().update(apiKeys).set({ lastUsedAt: new Date() }).where(eq(apiKeys.id, row.id));
  }
  const { lastUsedAt: _lastUsedAt, ...live } = row;
  liveKeys().set(hash, live.id, live);
  return live;
}
