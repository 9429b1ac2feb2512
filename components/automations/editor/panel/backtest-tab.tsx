"use client";

import type { Graph } from "@/lib/automations/graph/schema";
import { Backtest } from "./backtest";

/**
 * The editor's Backtest tab: the steps on the canvas, unsaved edits included, tried on the
 * automation's latest real runs with nothing sent, and the runs that would take another path.
 */
export function BacktestTab({
  automationId,
  version,
  canEdit,
  getGraph,
}: {
  automationId: string;
  version: number;
  canEdit: boolean;
  getGraph(): Graph;
}) {
  if (!canEdit)
    return (
      <p className="text-sm text-zinc-600">
        Editors can try a draft on the automation&apos;s real runs here.
      </p>
    );
  if (version === 0)
    return (
      <p className="text-sm text-zinc-600">
        Once this automation is published and has run, try your edits here on its latest real runs before you
        publish them.
      </p>
    );
  return (
    <div className="space-y-3">
      <p className="text-sm text-zinc-600">
        Replays the latest real runs through the steps on the canvas, on each record as it is now, through
        every wait as if it had ended (an approval or a wait for an event as it went in the real run). Nothing
        is saved or sent.
      </p>
      <Backtest automationId={automationId} getGraph={getGraph} />
    </div>
  );
}
