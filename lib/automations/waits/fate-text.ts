import { WAKE_REASONS, type Decision, type LiveAutomation } from "@/lib/automations/engine/wake";

// Pure and browser-safe: the sentences of a wait's fate. `wait-fate.ts` reads the fates.

/**
 * What a pending wait will do when it wakes, as the engine will decide it then (`decideWake`, the
 * wake table) if nothing changes meanwhile: carry on (with a note when it is not the plain case),
 * or be cancelled, with a sentence the merchant can act on.
 */
export type WaitFate = { continues: true; note?: string } | { continues: false; reason: string };

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
  /** `kind` "event": a wait for an event, which its event can wake before `resumeAt` (its time limit). */
  wait: { automationVersion: number; resumeAt: Date; kind?: string },
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
          wait.resumeAt.getTime() <= context.now.getTime()
            ? `${DOOMED} the automation is paused.`
            : wait.kind === "event"
              ? `${DOOMED} the automation is paused — turn it back on before its event comes (at the latest ${fateTime(wait.resumeAt, context.timeZone)}, when it times out) to keep it.`
              : `${DOOMED} the automation is paused — turn it back on before ${fateTime(wait.resumeAt, context.timeZone)} to keep it.`,
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
