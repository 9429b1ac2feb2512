import { and, eq, inArray } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { automationBrakes, automations, tenants } from "@/lib/db/schema";
import { decideWake, type Decision, type LiveAutomation } from "@/lib/automations/engine/wake";
import { loadVersion } from "@/lib/automations/store/versions";
import { fateOf, type WaitFate } from "./fate-text";

export { fateOf, fateTime, resumeNowWarning, type WaitFate } from "./fate-text";

/** The fate of a wait the emergency brake holds. */
export const BRAKE_HOLD_NOTE = "Holds while the emergency brake is on, and carries on when it is released.";

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
  // The emergency brake holds its automations' waits: they carry on when it is released.
  const [brake] = await db
    .select({ ids: automationBrakes.automationIds })
    .from(automationBrakes)
    .where(eq(automationBrakes.tenantId, tenantId));
  const braked = new Set(brake?.ids ?? []);
  for (const wait of legs) {
    const row = byId.get(wait.automationId);
    // Waits cascade with their automation: none found means the wait is not this shop's.
    if (!row) continue;
    const held = row.status === "paused" && braked.has(row.id);
    const automation: LiveAutomation = {
      // Held by the brake: decided as it will be on release, when the automation is active again.
      status: held ? "active" : row.status,
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
    const fate = fateOf(decision, automation, wait, { timeZone: row.timeZone, now });
    fates.set(wait.id, {
      fate: held && fate.continues ? { continues: true, note: BRAKE_HOLD_NOTE } : fate,
      decision,
    });
  }
  return fates;
}
