import crypto from "node:crypto";
import { and, desc, eq, isNull } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { apiKeys } from "@/lib/db/schema";
import { isUuid, notFound } from "@/lib/errors";
import type { Role } from "./roles";

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

/** Creates a key and returns it in full; this is the only time the full key exists outside the caller. */
export async function createApiKey(
  tenantId: string,
  input: { name: string; role: Role; createdBy?: string | null },
): Promise<{ key: string; apiKey: ApiKeySummary }> {
  const key = `${KEY_PREFIX}${crypto.randomBytes(24).toString("base64url")}`;
  const [apiKey] = await getDb()
    .insert(apiKeys)
    .values({
      tenantId,
      name: input.name,
      role: input.role,
      prefix: key.slice(0, 10),
      keyHash: hashApiKey(key),
      createdBy: input.createdBy ?? null,
    })
    .returning(summaryColumns);
  return { key, apiKey: apiKey! };
}

export async function listApiKeys(tenantId: string): Promise<ApiKeySummary[]> {
  return getDb()
    .select(summaryColumns)
    .from(apiKeys)
    .where(eq(apiKeys.tenantId, tenantId))
    .orderBy(desc(apiKeys.createdAt));
}

export async function revokeApiKey(tenantId: string, id: string): Promise<void> {
  if (!isUuid(id)) throw notFound("That API key");
  const rows = await getDb()
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.tenantId, tenantId), eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  if (rows.length === 0) throw notFound("That API key");
}

/** Looks up a live key by its hash. Returns null for unknown or revoked keys. */
export async function findApiKey(
  key: string,
): Promise<{ id: string; tenantId: string; role: Role; prefix: string } | null> {
  if (!key.startsWith(KEY_PREFIX)) return null;
  const [row] = await getDb()
    .select({
      id: apiKeys.id,
      tenantId: apiKeys.tenantId,
      role: apiKeys.role,
      prefix: apiKeys.prefix,
      lastUsedAt: apiKeys.lastUsedAt,
    })
    .from(apiKeys)
    .where(and(eq(apiKeys.keyHash, hashApiKey(key)), isNull(apiKeys.revokedAt)));
  if (!row) return null;
  // Touch last-used at most once a minute so hot API traffic does not write on every request.
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > 60_000) {
    await getDb().update(apiKeys).set({ lastUsedAt: new Date() }).where(eq(apiKeys.id, row.id));
  }
  return { id: row.id, tenantId: row.tenantId, role: row.role, prefix: row.prefix };
}
