import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { automations, automationVersions } from "@/lib/db/schema";
import type { Graph } from "@/lib/automations/graph/schema";

export interface PublishedVersion {
  automationId: string;
  version: number;
  name: string;
  graph: Graph;
}

// Published versions never change, so a worker can keep them; bounded so a long-lived worker
// serving many shops does not grow without limit.
const cache = new Map<string, PublishedVersion>();
const CACHE_LIMIT = 2_000;

/** The graph and name of one published version of an automation. */
export async function loadVersion(
  tx: DbOrTx,
  automationId: string,
  version: number,
): Promise<PublishedVersion | null> {
  const key = `${automationId}:${version}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const [row] = await tx
    .select({ name: automationVersions.name, graph: automationVersions.graph })
    .from(automationVersions)
    .where(and(eq(automationVersions.automationId, automationId), eq(automationVersions.version, version)));
  if (!row) return null;
  const loaded = { automationId, version, name: row.name, graph: row.graph };
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  cache.set(key, loaded);
  return loaded;
}

/** The automation's live state: what decides whether a run may act now. */
export async function loadAutomationState(tx: DbOrTx, tenantId: string, automationId: string) {
  const [row] = await tx
    .select({
      id: automations.id,
      name: automations.name,
      status: automations.status,
      version: automations.version,
      inFlightPolicy: automations.inFlightPolicy,
    })
    .from(automations)
    .where(and(eq(automations.tenantId, tenantId), eq(automations.id, automationId)));
  return row ?? null;
}
