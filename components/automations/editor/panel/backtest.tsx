"use client";

import Link from "next/link";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { useServerAction } from "@/components/ui/hooks/use-server-action";
import { backtestAction } from "@/lib/actions/automations/backtest";
import type { BacktestResult } from "@/lib/automations/backtest/backtest";
import type { RunPaths } from "@/lib/automations/backtest/compare";
import type { Graph } from "@/lib/automations/graph/schema";

type State =
  { state: "idle" } | { state: "ready"; result: BacktestResult } | { state: "failed"; error: string };

/**
 * "Try on the last 50 real runs": the automation's latest real runs replayed through the graph
 * being edited, with no effects (lib/automations/backtest), and what would change — in the
 * publish dialog beside what happens to the waiting runs, and in the editor's Backtest tab.
 */
export function Backtest({
  automationId,
  getGraph,
  limit = 50,
}: {
  automationId: string;
  /** The graph to try, read when the button is pressed (the editor's, unsaved edits included). */
  getGraph(): Graph;
  limit?: number;
}) {
  const [answer, setAnswer] = useState<State>({ state: "idle" });
  const backtest = useServerAction(backtestAction);
  const pending = backtest.pending;

  function run() {
    backtest.run({ automationId, graph: getGraph(), limit }, (result) =>
      setAnswer(
        result.ok ? { state: "ready", result: result.data } : { state: "failed", error: result.error },
      ),
    );
  }

  return (
    <div data-testid="backtest">
      <Button size="sm" onClick={run} pending={pending}>
        Try on the last {limit} real runs
      </Button>
      <div aria-live="polite" className="mt-2">
        {pending && <p className="text-sm text-zinc-600">Replaying the latest runs…</p>}
        {!pending && answer.state === "failed" && (
          <p role="alert" className="text-sm text-red-700">
            Could not try it: {answer.error}
          </p>
        )}
        {!pending && answer.state === "ready" && <BacktestAnswer result={answer.result} />}
      </div>
    </div>
  );
}

/** How a changed run's path would differ, in words: "would no longer reach “Email …”". */
function differenceOf(run: RunPaths, label: (nodeId: string) => string): string {
  // Older answers carry no difference: it is the steps then and now.
  const lost = run.lost ?? run.then.filter((nodeId) => !run.now.includes(nodeId));
  const gained = run.gained ?? run.now.filter((nodeId) => !run.then.includes(nodeId));
  const depending = run.undecided?.length ? `, depending on ${run.undecided.map(label).join(" and ")}` : "";
  const parts = [
    lost.length > 0 && `would no longer reach ${lost.map(label).join(", ")}`,
    gained.length > 0 && `would newly reach ${gained.map(label).join(", ")}`,
    run.mightLose?.length && `might no longer reach ${run.mightLose.map(label).join(", ")}${depending}`,
    run.mightGain?.length && `might newly reach ${run.mightGain.map(label).join(", ")}${depending}`,
  ].filter((part): part is string => typeof part === "string");
  return parts.length > 0 ? `: ${parts.join("; ")}.` : ".";
}

/** Why a run's later steps are not known, in words. */
function notKnownOf(run: RunPaths, label: (nodeId: string) => string): string {
  switch (run.notKnown) {
    case "running":
      return ": still running, so its later steps are not known yet.";
    case "outcome":
      return `: depends on ${run.undecided?.map(label).join(" and ") ?? "a decision or event"}, which the real run never had.`;
    default:
      return ": still waiting, so its later steps are not known yet.";
  }
}

function RunLink({ run }: { run: RunPaths }) {
  return (
    <Link href={`/runs/${run.runId}`} className="font-medium text-indigo-700 underline underline-offset-2">
      {run.entity?.label ?? "A run without a record"}
    </Link>
  );
}

/**
 * What a backtest found: the headline (how many runs would change path, keep it, or cannot be
 * told yet), the difference in words, then each changed run and each run whose later steps are
 * not known, with a link to it.
 */
export function BacktestAnswer({ result }: { result: BacktestResult }) {
  const label = (nodeId: string) => `“${result.labels[nodeId] ?? nodeId}”`;
  const { unknown } = result;
  // "All 10 runs would take the same path" is said once, as the summary.
  const headline = result.runs > 0 && !result.sentences.includes(result.headline);
  return (
    <div className="text-sm text-zinc-700">
      {headline && (
        <p data-testid="backtest-headline" className="font-medium text-zinc-900">
          {result.headline}.
        </p>
      )}
      {/* Under a headline, only what it does not say: the steps gained or lost. */}
      {(!headline || result.differences.length > 0) && (
        <p data-testid="backtest-summary" className={headline ? "mt-1" : undefined}>
          {result.runs > 0 && `Replayed ${result.runs === 1 ? "1 real run" : `${result.runs} real runs`}: `}
          {(headline ? result.differences : result.sentences).join("; ")}.
        </p>
      )}
      {result.changed.length > 0 && (
        <ul aria-label="Runs that would take another path" className="mt-2 space-y-1.5">
          {result.changed.map((run) => (
            <li key={run.runId} data-testid="backtest-changed-run">
              <RunLink run={run} />
              <span>
                {run.now.length === 0 && !run.maybe ? ": would not start." : differenceOf(run, label)}
              </span>
            </li>
          ))}
        </ul>
      )}
      {unknown.length > 0 && (
        <ul aria-label="Runs whose later steps are not known yet" className="mt-2 space-y-1.5">
          {unknown.map((run) => (
            <li key={run.runId} data-testid="backtest-unknown-run">
              <RunLink run={run} />
              <span>{notKnownOf(run, label)}</span>
            </li>
          ))}
        </ul>
      )}
      {result.notes.length > 0 && (
        <ul className="mt-2 space-y-1 text-xs text-zinc-500">
          {result.notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
