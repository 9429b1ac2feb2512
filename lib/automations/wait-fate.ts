import { and, eq, inArray } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { automations, tenants } from "@/lib/db/schema";
import { decideWake, WAKE_REASONS, type Decision, type LiveAutomation } from "./engine/wake";
import { loadVersion } from "./store/versions";

/**
 * What a pending wait will do when it wakes, as the engine will decide it then (`decideWake`, the
 * wake table) if nothing changes meanwhile: carry on (with a note when it is not the plain case),
 * or be cancelled, with a sentence the merchant can act on.
 */
export type WaitFate = { continues: true; note?: string } | { continues: false; reason: string };

/** The fields of a pending wait its fate depends on. */
export interface FateWait {
  id: string;
  automationId: string;
  automationVersion: number;
  nodeId: string;
  kind: string;
  resumeAt: Date;
}

const DOOMED = "Will be cancelled when it wakes:";

/** "2 Dec 14:00" in the shop's time zone. */
export function fateTime(at: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone,
    day: "numeric",
    month: "short",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
  return `${part("day")} ${part("month")} ${part("hour")}:${part("minute")}`;
}

/**
 * The engine's decision, told in the future tense. Pure: `decision` is what `decideWake` returned
 * for this wait and `automation` the state it was given.
 */
export function fateOf(
  decision: Decision,
  automation: LiveAutomation,
  wait: { automationVersion: number; resumeAt: Date },
  context: { timeZone: string; now: Date },
): WaitFate {
  if (decision.go) {
    if (decision.note === null) return { continues: true };
    if (decision.version.version !== wait.automationVersion)
      return { continues: true, note: `Will move to version ${decision.version.version} when it wakes.` };
    if (automation && decision.note.startsWith("Carried on"))
      return {
        continues: true,
        note: `Will carry on: version ${automation.version} has the same steps as version ${wait.automationVersion}.`,
      };
    return {
      continues: true,
      note: `Will finish on version ${wait.automationVersion}, the version it started on.`,
    };
  }
  switch (decision.reason) {
    case WAKE_REASONS.paused:
      return {
        continues: false,
        reason:
          wait.resumeAt.getTime() > context.now.getTime()
            ? `${DOOMED} the automation is paused — turn it back on before ${fateTime(wait.resumeAt, context.timeZone)} to keep it.`
            : `${DOOMED} the automation is paused.`,
      };
    case WAKE_REASONS.archived:
      return { continues: false, reason: `${DOOMED} the automation is archived.` };
    case WAKE_REASONS.draft:
      return { continues: false, reason: `${DOOMED} the automation is unpublished — publish it to keep it.` };
    case WAKE_REASONS.deleted:
      return {
        continues: false,
        reason: automation
          ? `${DOOMED} the version it started on (version ${wait.automationVersion}) is gone.`
          : `${DOOMED} the automation was deleted.`,
      };
    case WAKE_REASONS.edited:
      return {
        continues: false,
        reason: `${DOOMED} the automation was edited (version ${automation?.version ?? "?"}) and its in-flight policy is 'cancel'.`,
      };
    default:
      return {
        continues: false,
        reason: `${DOOMED} the automation was edited (version ${automation?.version ?? "?"}) and that version no longer has the step it waits at.`,
      };
  }
}

/** What the confirmation of "Resume now" on a doomed wait says: the fate's reason, for now. */
export function resumeNowWarning(fate: Extract<WaitFate, { continues: false }>): string {
  return `This run will be cancelled, not resumed: ${fate.reason.slice(DOOMED.length).trim().split(" — ")[0]!.replace(/\.$/, "")}.`;
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
  const fates = new Map<string, WaitFate>();
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
    fates.set(wait.id, fateOf(decision, automation, wait, { timeZone: row.timeZone, now }));
  }
  return fates;
}
