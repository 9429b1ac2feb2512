import { diffGraphs } from "@/lib/automations/review/diff";
import type { PublishedVersion } from "@/lib/automations/store/versions";

/**
 * Whether a leg may run, decided purely from the automation as it is now (SPEC §2 "On wake").
 * One function for each kind of leg; the pipeline loads what they read and does what they say.
 */

export type AutomationStatus = "draft" | "active" | "paused" | "archived";
export type InFlightPolicy = "cancel" | "finish_on_started_version" | "move_to_latest";

/** The automation's live state; null when it was deleted. */
export type LiveAutomation = {
  status: AutomationStatus;
  version: number;
  inFlightPolicy: InFlightPolicy;
  /** The share of customers held out (0–50; absent: 0), read by a first leg (engine/touches.ts). */
  holdoutPercent?: number;
} | null;

/** Why a queued run will not act: the merchant switched the automation off before it started. */
export const NOT_STARTED_REASONS = {
  paused: "The automation was paused before this run started.",
  archived: "The automation was archived before this run started.",
  draft: "The automation is not published.",
  deleted: "The automation was deleted before this run started.",
} as const;

/** Why a waking run does not continue. */
export const WAKE_REASONS = {
  paused: "The automation was paused while this run was waiting.",
  archived: "The automation was archived while this run was waiting.",
  deleted: "The automation was deleted while this run was waiting.",
  draft: "The automation was unpublished while this run was waiting.",
  edited: "The automation was edited while this run was waiting.",
} as const;

export type Decision =
  { go: true; version: PublishedVersion; note: string | null } | { go: false; reason: string };

/** A first leg runs on the version its run was created for, if the automation is still on. */
export function decideStart(automation: LiveAutomation, version: PublishedVersion | null): Decision {
  if (!automation) return { go: false, reason: NOT_STARTED_REASONS.deleted };
  if (automation.status !== "active") return { go: false, reason: NOT_STARTED_REASONS[automation.status] };
  if (!version) return { go: false, reason: NOT_STARTED_REASONS.deleted };
  return { go: true, version, note: null };
}

export interface WakeInput {
  automation: LiveAutomation;
  /** Where the run waits: the version it was on and the node it waits at. */
  wait: { automationVersion: number; nodeId: string };
  /** The version the run waits on, and the automation's current one (null if missing). */
  started: PublishedVersion | null;
  latest: PublishedVersion | null;
}

/**
 * The wake table:
 *
 * | automation now                                   | the leg                                          |
 * | ------------------------------------------------ | ------------------------------------------------ |
 * | deleted, archived, paused, unpublished           | does not run; the run is cancelled with a reason |
 * | active, same version                             | continues from the wait                          |
 * | active, newer version with the same steps        | continues from the wait (a revert)               |
 * | active, newer version, policy `cancel`           | does not run: "edited while this run was waiting" |
 * | … `finish_on_started_version`                    | continues on the version it started on           |
 * | … `move_to_latest`                               | continues on the new graph if it has the wait    |
 */
export function decideWake({ automation, wait, started, latest }: WakeInput): Decision {
  if (!automation) return { go: false, reason: WAKE_REASONS.deleted };
  if (automation.status !== "active") return { go: false, reason: WAKE_REASONS[automation.status] };
  if (!started) return { go: false, reason: WAKE_REASONS.deleted };
  if (automation.version === wait.automationVersion) return { go: true, version: started, note: null };
  if (latest && diffGraphs(started.graph, latest.graph).isEmpty) {
    return {
      go: true,
      version: started,
      note: `Carried on: version ${latest.version} has the same steps as version ${started.version}.`,
    };
  }
  switch (automation.inFlightPolicy) {
    case "cancel":
      return { go: false, reason: WAKE_REASONS.edited };
    case "finish_on_started_version":
      return {
        go: true,
        version: started,
        note: `Finished on version ${wait.automationVersion}, the version it started on.`,
      };
    case "move_to_latest":
      if (!latest || !latest.graph.nodes.some((n) => n.id === wait.nodeId)) {
        return {
          go: false,
          reason: `The automation was edited while this run was waiting, and version ${automation.version} no longer has the step it was waiting at.`,
        };
      }
      return { go: true, version: latest, note: `Moved to version ${automation.version} when it woke.` };
  }
}
