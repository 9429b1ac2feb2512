import type { Graph } from "@/lib/automations/graph/schema";
import type { InFlightPolicy } from "@/lib/automations/lifecycle/policies";

/**
 * The words of the publish state (the Issues panel, the Publish button's reason), kept pure and
 * light: the editor's first paint shows them before the node registry loads.
 */

/** What a version publishes: its steps, its name and what happens to the runs waiting. */
export interface PublishContent {
  graph: Graph;
  name: string;
  inFlightPolicy: InFlightPolicy;
}

/**
 * Whether publishing the draft would publish nothing new: the active version's steps (by content,
 * so moving a step is not a change), name and policy all equal the draft's. False while the active
 * version is unknown (never published, or its name and policy not loaded yet), so Publish is never
 * blocked on a guess. `sameSteps` compares steps by content (`diffGraphs(...).isEmpty`), passed in
 * so this module stays light: the first paint needs it before the registry loads.
 */
export function draftMatchesActive(
  active: PublishContent | null,
  draft: PublishContent,
  sameSteps: (before: Graph, after: Graph) => boolean,
): boolean {
  if (!active) return false;
  return (
    sameSteps(active.graph, draft.graph) &&
    active.name === draft.name.trim() &&
    active.inFlightPolicy === draft.inFlightPolicy
  );
}

/** Why Publish is disabled, for its title and aria-describedby; null when it is enabled. */
export function publishBlockedReason(input: {
  issueCount: number;
  nameMissing: boolean;
  unchanged: boolean;
  version: number;
}): string | null {
  if (input.issueCount > 0) {
    return `Fix ${input.issueCount === 1 ? "1 issue" : `${input.issueCount} issues`} to publish.`;
  }
  if (input.nameMissing) return "Give the automation a name to publish it.";
  if (input.unchanged) return `Nothing to publish: the draft is the same as version ${input.version}.`;
  return null;
}

/**
 * The state of the flow once every step is set up, as the Issues panel reads it: what runs now and
 * what publishing would change. Only someone who can edit is told to publish; a viewer reads the
 * state alone.
 */
export function publishStateText(input: {
  status: "draft" | "active" | "paused" | "archived";
  version: number;
  /** The draft differs from the active version (always true before the first version). */
  changed: boolean;
  canEdit: boolean;
}): { title: string; detail: string | null } {
  const { status, version: v, changed, canEdit } = input;
  if (status === "archived") {
    return {
      title: v > 0 ? `Archived: version ${v} does not run.` : "Archived: it does not run.",
      detail: null,
    };
  }
  if (v === 0) {
    return canEdit
      ? { title: "Ready to publish", detail: "Every step is set up. Publish to start running this flow." }
      : {
          title: "Not published yet",
          detail: "Every step is set up; this flow does not run until it is published.",
        };
  }
  const running =
    status === "active"
      ? `Live: version ${v} is running.`
      : status === "paused"
        ? `Paused: version ${v} is not running.`
        : `Version ${v} is not running.`;
  if (!changed) return { title: running, detail: null };
  if (!canEdit) {
    return { title: running, detail: `The draft has changes since version ${v} that are not published.` };
  }
  return status === "active"
    ? { title: `Changes since version ${v} — publish to make them live.`, detail: null }
    : { title: `Changes since version ${v} — publishing turns the flow on again with them.`, detail: null };
}
