"use client";

import { useQuery } from "@tanstack/react-query";
import { fetchJson, POLL_MS } from "@/components/runs/fetch-json";
import { RunLink } from "@/components/runs/run-link";
import { RunStatusBadge, TERMINAL_RUN_STATUSES } from "@/components/runs/run-status";
import type { RunDetail } from "@/lib/automations/runs/detail";
import { shortRunId } from "@/lib/automations/runs/short-id";

/**
 * Where a decided approval's run is now, live: its status badge (polled until the run has ended)
 * and a link to it. Shares the run page's query, so both stay in step.
 */
export function RunProgress({ runId }: { runId: string }) {
  const { data: run } = useQuery({
    queryKey: ["run", runId],
    queryFn: () => fetchJson<RunDetail>(`/api/v1/runs/${runId}`),
    refetchInterval: (query) => (TERMINAL_RUN_STATUSES.has(query.state.data?.status ?? "") ? false : POLL_MS),
  });
  const ended = run && TERMINAL_RUN_STATUSES.has(run.status);
  return (
    <p className="flex flex-wrap items-center gap-2 text-sm text-zinc-700" data-testid="run-progress">
      <span>{ended ? "The run ended:" : "The run continues:"}</span>
      {run ? (
        <RunStatusBadge status={run.status} awaitingApproval={run.awaitingApproval} />
      ) : (
        <span className="text-zinc-500">loading…</span>
      )}
      <RunLink runId={runId} className="text-sm font-medium text-zinc-900 underline">
        Open run {shortRunId(runId)}
      </RunLink>
    </p>
  );
}
