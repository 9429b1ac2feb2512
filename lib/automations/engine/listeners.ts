import { and, arrayOverlaps, eq, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { automations, type AutomationCaps } from "@/lib/db/schema";
import type { Graph } from "@/lib/automations/graph/schema";

/**
 * The active automations listening to an event type, remembered per (shop, event type) so a hot
 * stream of events does not read every listener's graph for each one.
 *
 * Terminology: a *listener* is an active automation whose `trigger_events` include the type; the
 * *stamp* of a set of listeners is their `id:version:capsRevision` triples, sorted and joined. A remembered set
 * is never trusted blindly: the statement that starts runs from it first recomputes the stamp in
 * the database (`stampMatches`, in the same statement, so on the same snapshot) and writes nothing
 * when it differs; the caller then reads the listeners afresh and tries again. So an event right
 * after a publish, pause, activate or revert — in this process or any other — starts exactly the
 * runs an uncached read would have started, with no notification to wait for.
 *
 * This relies on one invariant of the automations table: the active graph never changes without
 * the version changing (publishing, reverting and resetting a built-in all publish version N+1),
 * and switching an automation on or off changes `status`, which decides membership. Caps change
 * without a version, so they bump `caps_revision`, which the stamp carries too.
 */

export interface Listener {
  id: string;
  version: number;
  graph: Graph;
  /** Its caps (caps/): runs past one are held. Null for most automations. */
  caps: AutomationCaps | null;
  capsRevision: number;
}

/** How long a remembered set is kept. Correctness does not depend on it (see above). Default 60 s. */
const LISTENERS_TTL_MS = 60_000;
/** Remembered (shop, type) pairs at most; the oldest is dropped first. */
const MAX_ENTRIES = 5_000;

interface Entry {
  listeners: Listener[];
  expiresAt: number;
}

const remembered = new Map<string, Entry>();
const entryKey = (tenantId: string, type: string) => `${tenantId} ${type}`;

function remember(key: string, listeners: Listener[]): void {
  remembered.delete(key);
  if (remembered.size >= MAX_ENTRIES) {
    const oldest = remembered.keys().next();
    if (!oldest.done) remembered.delete(oldest.value);
  }
  remembered.set(key, { listeners, expiresAt: Date.now() + LISTENERS_TTL_MS });
}

/** The stamp of a set of listeners: what `stampMatches` recomputes in the database. */
export function stampOf(listeners: Pick<Listener, "id" | "version" | "capsRevision">[]): string {
  return [...new Set(listeners.map((l) => `${l.id}:${l.version}:${l.capsRevision}`))].sort().join(",");
}

/**
 * The listeners to any of `types` (each automation once) and their stamp. Remembered sets are
 * used unless `fresh`; the missing ones are read in one query.
 */
export async function listenersFor(
  db: DbOrTx,
  tenantId: string,
  types: string[],
  options: { fresh?: boolean } = {},
): Promise<{ listeners: Listener[]; stamp: string }> {
  const now = Date.now();
  const found = new Map<string, Listener>();
  const missing: string[] = [];
  for (const type of new Set(types)) {
    const entry = options.fresh ? undefined : remembered.get(entryKey(tenantId, type));
    if (entry && entry.expiresAt > now) for (const l of entry.listeners) found.set(l.id, l);
    else missing.push(type);
  }
  if (missing.length > 0) {
    const rows = await db
      .select({
        id: automations.id,
        version: automations.version,
        graph: automations.activeGraph,
        triggerEvents: automations.triggerEvents,
        caps: automations.caps,
        capsRevision: automations.capsRevision,
      })
      .from(automations)
      .where(
        and(
          eq(automations.tenantId, tenantId),
          eq(automations.status, "active"),
          arrayOverlaps(automations.triggerEvents, missing),
        ),
      );
    for (const type of missing) {
      const listeners = rows.flatMap((r) =>
        r.graph && r.triggerEvents.includes(type)
          ? [{ id: r.id, version: r.version, graph: r.graph, caps: r.caps, capsRevision: r.capsRevision }]
          : [],
      );
      remember(entryKey(tenantId, type), listeners);
      for (const l of listeners) found.set(l.id, l);
    }
  }
  const listeners = [...found.values()];
  return { listeners, stamp: stampOf(listeners) };
}

/**
 * A one-row, one-column (`ok`) query: whether the listeners to `types` in the database right now
 * have `stamp`. Meant as a CTE of the statement that writes runs, so check and write share a snapshot.
 */
export function stampMatches(tenantId: string, types: string[], stamp: string): SQL {
  return sql`select coalesce((
      select string_agg(${automations.id}::text || ':' || ${automations.version} || ':' || ${automations.capsRevision}, ',' order by ${automations.id}::text collate "C")
      from ${automations}
      where ${automations.tenantId} = ${tenantId} and ${automations.status} = 'active'
        and ${automations.activeGraph} is not null
        and ${automations.triggerEvents} && array(select json_array_elements_text(${JSON.stringify([...new Set(types)])}::json))
    ), '') = ${stamp} as ok`;
}
