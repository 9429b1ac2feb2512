import { and, eq, inArray } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { automations, tenants } from "@/lib/db/schema";
import { decideWake, type Decision, type LiveAutomation } from "@/lib/automations/engine/wake";
import { loadVersion } from "@/lib/automations/store/versions";
import { fateOf, type WaitFate } from "./fate-text";

export { fateOf, fateTime, resumeNowWarning, type WaitFate } from "./fate-text";

/** The fields of a pending wait its fate depends on. */
export interface FateWait {
  id: string;
  automationId: string;
  automationVersion: number;
  nodeId: string;
  kind: string;
  resumeAt: Date;
}

/**
 * The fate of each pending wait of the shop given (by wait id), from one query for the
 * automations of all of them and the cached published versions. A later step is not a leg (it
 * starts a new run) and has no fate; a wait of another shop is left out.
 */
export async function waitFates(
  tenantId: string,
  waits: FateWait[],
  now: Date = new Date(),
): Promise<Map<string, WaitFate>> {
  const decided = await waitDecisions(tenantId, waits, now);
  return new Map([...decided].map(([id, { fate }]) => [id, fate]));
}

/**
 * `waitFates` with the engine's decision behind each fate (`decideWake`): the version a leg would
 * go on with, which a run's page draws (a run moving to the latest version follows its graph).
 */
export async function waitDecisions(
  tenantId: string,
  waits: FateWait[],
  now: Date = new Date(),
): Promise<Map<string, { fate: WaitFate; decision: Decision }>> {
  const fates = new Map<string, { fate: WaitFate; decision: Decision }>();
  const legs = waits.filter((w) => w.kind !== "later");
  if (legs.length === 0) return fates;
  const db = getDb();
  const rows = await db
    .select({
      id: automations.id,
      status: automations.status,
      version: automations.version,
      inFlightPolicy: automations.inFlightPolicy,
      timeZone: tenants.timezone,
    })
    .from(automations)
    .innerJoin(tenants, eq(tenants.id, automations.tenantId))
    .where(
      and(
        eq(automations.tenantId, tenantId),
        inArray(automations.id, [...new Set(legs.map((w) => w.automationId))]),
      ),
    );
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const wait of legs) {
    const row = byId.get(wait.automationId);
    // Waits cascade with their automation: none found means the wait is not this shop's.
    if (!row) continue;
    const automation: LiveAutomation = {
      status: row.status,
      version: row.version,
      inFlightPolicy: row.inFlightPolicy,
    };
    const started = await loadVersion(db, wait.automationId, wait.automationVersion);
    const latest =
      row.version === wait.automationVersion
        ? started
        : await loadVersion(db, wait.automationId, row.version);
    const decision = decideWake({
      automation,
      wait: { automationVersion: wait.automationVersion, nodeId: wait.nodeId },
      started,
      latest,
    });
    fates.set(wait.id, {
      fate: fateOf(decision, automation, wait, { timeZone: row.timeZone, now }),
      decision,
    });
  }
  return fates;
}
