import type { AutomationCaps } from "@/lib/db/schema";
import { hourlyHeldReason, perRecordHeldReason } from "./caps";

/**
 * Which starting runs a cap holds. Pure: the counts of runs already started come in `usage`.
 *
 * Terminology: a run *counts* toward a cap when it started (or was released) within the cap's
 * window; a held run does not count until it is released, so releasing is a person's deliberate
 * "yes, this one too". Runs are decided in the order given, each counting toward the next.
 */

/** A run about to start, as the cap decision needs it. */
export interface CapCandidate {
  automationId: string;
  domain: string;
  entityId: string | null;
}

/** What had already started when the runs were decided. */
export interface CapUsage {
  /** Runs of each automation counted in the last hour, up to its cap (past it, more decides nothing). */
  lastHour: Map<string, number>;
  /** Runs per record counted in its automation's per-record window: key `recordKey(...)`. */
  perRecord: Map<string, number>;
}

export const recordKey = (automationId: string, domain: string, entityId: string) =>
  `${automationId} ${domain} ${entityId}`;

export interface CapDecision {
  /** Per candidate, in order: why it is held, or null when it starts. */
  heldReasons: (string | null)[];
  /** Automations whose hourly cap held a run now (a storm: pauses with `pauseOnStorm`). */
  stormed: string[];
}

export function decideCaps(
  candidates: CapCandidate[],
  capsOf: (automationId: string) => AutomationCaps | null,
  usage: CapUsage,
): CapDecision {
  const lastHour = new Map(usage.lastHour);
  const perRecord = new Map(usage.perRecord);
  const stormed = new Set<string>();
  const heldReasons = candidates.map((run) => {
    const caps = capsOf(run.automationId);
    if (!caps) return null;
    const key = run.entityId === null ? null : recordKey(run.automationId, run.domain, run.entityId);
    const hourly = lastHour.get(run.automationId) ?? 0;
    const forRecord = key === null ? 0 : (perRecord.get(key) ?? 0);
    if (caps.maxPerRecord && key !== null && forRecord >= caps.maxPerRecord.count)
      return perRecordHeldReason(caps.maxPerRecord);
    if (caps.maxRunsPerHour !== undefined && hourly >= caps.maxRunsPerHour) {
      stormed.add(run.automationId);
      return hourlyHeldReason(caps.maxRunsPerHour);
    }
    lastHour.set(run.automationId, hourly + 1);
    if (key !== null) perRecord.set(key, forRecord + 1);
    return null;
  });
  return { heldReasons, stormed: [...stormed] };
}
