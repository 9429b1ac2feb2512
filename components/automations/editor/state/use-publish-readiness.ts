"use client";

import { useMemo } from "react";
import type { EditorFirstPaint } from "@/lib/automations/editor/first-paint";
import type { Graph } from "@/lib/automations/graph/schema";
import type { InFlightPolicy } from "@/lib/automations/lifecycle/policies";
import type { AutomationView } from "@/lib/automations/lifecycle/read";
import { draftMatchesActive, publishBlockedReason } from "../header/publish-text";
import { useActiveMeta } from "./use-active-meta";
import type { NodeLogic } from "./node-logic-loader";

interface PublishReadinessInput {
  draft: { graph: Graph; name: string; inFlightPolicy: InFlightPolicy };
  issueCount: number;
  logic: NodeLogic | null;
  /** Until the registry loads, the server says whether the steps differ from the active version's. */
  firstPaint: Pick<EditorFirstPaint, "stepsChanged">;
}

/**
 * Whether the draft differs from the active version and what, if anything, keeps it from being
 * published (ready issues, no name, nothing changed).
 */
export function usePublishReadiness(
  automation: Pick<AutomationView, "id" | "version" | "activeGraph">,
  { draft, issueCount, logic, firstPaint }: PublishReadinessInput,
) {
  const { version, activeGraph } = automation;
  const activeMeta = useActiveMeta(automation.id, version);
  const firstPaintStepsChanged = firstPaint.stepsChanged;
  const { graph, name, inFlightPolicy } = draft;
  const stepsChanged = useMemo(
    () => version === 0 || (logic ? !logic.diffGraphs(activeGraph, graph).isEmpty : firstPaintStepsChanged),
    [version, activeGraph, graph, logic, firstPaintStepsChanged],
  );
  const unchanged = useMemo(
    () =>
      draftMatchesActive(
        activeMeta && activeGraph ? { graph: activeGraph, ...activeMeta } : null,
        { graph, name, inFlightPolicy },
        (before, after) => (logic ? logic.diffGraphs(before, after).isEmpty : !firstPaintStepsChanged),
      ),
    [activeMeta, activeGraph, graph, name, inFlightPolicy, logic, firstPaintStepsChanged],
  );
  // Until the active name and policy load, only the steps tell whether anything changed.
  const draftChanged = activeMeta ? !unchanged : stepsChanged;
  const publishBlocked = publishBlockedReason({
    issueCount,
    nameMissing: name.trim() === "",
    unchanged,
    version,
  });
  return { unchanged, draftChanged, publishBlocked };
}
