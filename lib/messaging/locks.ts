import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { executePrepared } from "@/lib/db/prepared";

/*
 * The per-customer advisory locks the gate decides under (gate.ts), taken so that no two
 * transactions can deadlock on them: within a transaction every lock is taken in ascending key
 * order. A phase of many legs takes its customers' locks first, all at once and sorted
 * (`lockCustomers` from engine/phase.ts); a later lock with a key above every one held is taken in
 * order too; one below a held key cannot wait (waiting there is how a cycle forms), so it is only
 * tried — and when another transaction holds it, `LockOrderConflict` undoes the phase, whose legs
 * then run one at a time (each then locks in order from the start). Two transactions waiting on
 * each other would each need to wait for a lower key while holding a higher one: never done.
 */

/** The advisory lock key of one customer of one shop: 64 bits of a SHA-256, as Postgres' bigint. */
export function customerLockKey(tenantId: string, customerId: string): bigint {
  const digest = createHash("sha256").update(`${tenantId}:${customerId}`).digest();
  return digest.readBigInt64BE(0);
}

/** The gate locks each transaction holds (advisory xact locks last until it ends). */
const held = new WeakMap<object, Set<bigint>>();

/** A lock below one already held is taken by another transaction: this one must not wait for it. */
export class LockOrderConflict extends Error {
  constructor() {
    super("A customer's lock was taken out of order while another transaction held it; trying again.");
    this.name = "LockOrderConflict";
  }
}

/**
 * Takes these customers' locks in this transaction (already held ones are skipped), never waiting
 * out of key order: see the top of this file. One statement for the keys it may wait for.
 */
export async function lockCustomers(
  tx: DbOrTx,
  customers: readonly { tenantId: string; customerId: string }[],
): Promise<void> {
  const mine = held.get(tx) ?? new Set<bigint>();
  held.set(tx, mine);
  const keys = [...new Set(customers.map((c) => customerLockKey(c.tenantId, c.customerId)))]
    .filter((key) => !mine.has(key))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (keys.length === 0) return;
  let highest: bigint | null = null;
  for (const key of mine) if (highest === null || key > highest) highest = key;
  const below = highest === null ? [] : keys.filter((key) => key < highest);
  const above = keys.filter((key) => highest === null || key > highest);
  for (const key of below) {
    const [row] = await tx.execute<{ ok: boolean }>(
      sql`select pg_try_advisory_xact_lock(${key.toString()}::bigint) as ok`,
    );
    if (row?.ok !== true) throw new LockOrderConflict();
    mine.add(key);
  }
  if (above.length > 0) {
    // unnest yields the array in order and the function scan calls the lock row by row: ascending.
    await executePrepared(
      sql`select count(pg_advisory_xact_lock(k)) from unnest(${`{${above.join(",")}}`}::bigint[]) as k`,
      tx,
    );
    for (const key of above) mine.add(key);
  }
}
