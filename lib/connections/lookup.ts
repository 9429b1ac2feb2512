import { sql } from "drizzle-orm";
import { executePrepared } from "@/lib/db/prepared";
import { open } from "@/lib/credentials/secret-box";
import { notFound } from "@/lib/errors";
import type { Platform } from "./platforms";

/** What a delivery needs of its connection: whose it is and the secret its signature is checked with. */
export interface KnownConnection {
  id: string;
  tenantId: string;
  platform: Platform;
  secret: string;
  /** True when read from the database just now, not remembered. */
  fresh: boolean;
}

/**
 * A store posts many deliveries a second; each would read its connection and open its secret.
 * Connections are remembered for a while, by token, in this process. A remembered one can be out of
 * date in two ways, and both are caught: a secret rotated since (the signature fails, so the
 * connection is read again before the delivery is refused) and a connection deleted since (the
 * delivery's insert names the connection's id and token, finds nothing, and is a 404).
 */
const REMEMBER_MS = 30_000;
const MAX_REMEMBERED = 1_000;
const remembered = new Map<string, { connection: KnownConnection; until: number }>();

async function read(token: string): Promise<KnownConnection | null> {
  // Prepared (lib/db/prepared.ts): one round trip, its plan kept by the database connection.
  const [row] = await executePrepared<{
    id: string;
    tenantId: string;
    platform: Platform;
    sealed: string;
  }>(sql`
    select c.id, c.tenant_id as "tenantId", c.platform, k.value as sealed
    from store_connections c join credentials k on k.id = c.credential_id
    where c.token = ${token}`);
  if (!row) return null;
  return {
    id: row.id,
    tenantId: row.tenantId,
    platform: row.platform,
    secret: open(row.sealed, row.tenantId),
    fresh: true,
  };
}

/** The connection of a URL's token, remembered or read again (`fresh`); a 404 when there is none. */
export async function connectionOf(
  platform: Platform,
  token: string,
  { fresh = false } = {},
): Promise<KnownConnection> {
  if (!/^[A-Za-z0-9_-]{16,200}$/.test(token)) throw notFound("This connection URL");
  const kept = fresh ? undefined : remembered.get(token);
  let connection = kept && kept.until > Date.now() ? { ...kept.connection, fresh: false } : null;
  if (!connection) {
    connection = await read(token);
    if (connection) {
      if (remembered.size >= MAX_REMEMBERED) remembered.delete(remembered.keys().next().value!);
      remembered.set(token, { connection, until: Date.now() + REMEMBER_MS });
    } else remembered.delete(token);
  }
  // Another platform's URL is not this one's: a Shopify webhook pasted into WooCommerce is a 404.
  if (!connection || connection.platform !== platform) throw notFound("This connection URL");
  return connection;
}

/** Forgets a token whose connection turned out to be gone. */
export function forgetConnection(token: string): void {
  remembered.delete(token);
}
