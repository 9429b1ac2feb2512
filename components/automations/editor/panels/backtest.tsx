"use client";

import Link from "next/link";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { backtestAction } from "@/lib/actions/automations/backtest";
import type { BacktestResult } from "@/lib/automations/backtest/backtest";
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
  const [pending, startTransition] = useTransition();

  function run() {
    startTransition(async () => {
      try {
        const result = await backtestAction({ automationId, graph: getGraph(), limit });
        setAnswer(
          result.ok ? { state: "ready", result: result.data } : { state: "failed", error: result.error },
        );
      } catch {
        setAnswer({ state: "failed", error: "The server could not be reached. Check your connection." });
      }
    });
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

/** What a backtest found: the difference in words, then each changed run with a link to it. */
export function BacktestAnswer({ result }: { result: BacktestResult }) {
  const label = (nodeId: string) => `“${result.labels[nodeId] ?? nodeId}”`;
  return (
    <div className="text-sm text-zinc-700">
      <p data-testid="backtest-summary">
        {result.runs > 0 && `Replayed ${result.runs === 1 ? "1 real run" : `${result.runs} real runs`}: `}
        {result.sentences.join("; ")}.
      </p>
      {result.changed.length > 0 && (
        <ul aria-label="Runs that would take another path" className="mt-2 space-y-1.5">
          {result.changed.map((run) => {
            const lost = run.then.filter((nodeId) => !run.now.includes(nodeId));
            const gained = run.now.filter((nodeId) => !run.then.includes(nodeId));
            return (
              <li key={run.runId} data-testid="backtest-changed-run">
                <Link
                  href={`/runs/${run.runId}`}
                  className="font-medium text-indigo-700 underline underline-offset-2"
                >
                  {run.entity?.label ?? "A run without a record"}
                </Link>
                {run.now.length === 0 ? (
                  <span>: would not start.</span>
                ) : (
                  <span>
                    {lost.length > 0 && `: would no longer reach ${lost.map(label).join(", ")}`}
                    {gained.length > 0 &&
                      `${lost.length > 0 ? ";" : ":"} would newly reach ${gained.map(label).join(", ")}`}
                    .
                  </span>
                )}
              </li>
            );
          })}
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
