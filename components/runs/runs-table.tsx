"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Fragment } from "react";
import { Pager } from "@/components/entities/pager";
import { RelativeTime } from "@/components/ui/relative-time";
import { TBody, TD, TH, THead, TR, Table } from "@/components/ui/table";
import type { RunSummary } from "@/lib/automations/runs/summary";
import { shortRunId } from "@/lib/automations/runs/short-id";
import { formatDuration } from "./duration";
import { EntityLink } from "./entity-link";
import { fetchJson, POLL_MS } from "./fetch-json";
import { LiveStatus } from "./live-status";
import { RunStatusBadge } from "./run-status";
import { WaitingLine } from "./waiting-line";

/**
 * Below 1360 px (a 1280 px laptop with the sidebar) the Version column folds into the Trigger
 * column as a second line, so every other column fits without scrolling sideways.
 */
const WIDE_ONLY = "hidden min-[1360px]:table-cell";
const NARROW_ONLY = "min-[1360px]:hidden";

export interface RunsPage {
  items: RunSummary[];
  nextCursor: string | null;
}

export interface RunsTableProps {
  initial: RunsPage;
  /** The `/api/v1/runs` query string of this page (filters, cursor, limit). */
  apiQuery: string;
  /** The page's path and filters, for the pager's links. */
  path: string;
  params: Record<string, string | undefined>;
  paged: boolean;
  /** False on an automation's own Runs tab, where every row is that automation. */
  showAutomation: boolean;
}

/**
 * The runs of one page, kept live by polling the same API query the page was rendered from. The
 * rows update in place, so scroll position and filters stay where they are.
 */
export function RunsTable({ initial, apiQuery, path, params, paged, showAutomation }: RunsTableProps) {
  const { data, error } = useQuery({
    queryKey: ["runs", apiQuery],
    queryFn: () => fetchJson<RunsPage>(`/api/v1/runs?${apiQuery}`),
    initialData: initial,
    refetchInterval: POLL_MS,
  });
  return (
    <>
      <Table caption="Runs">
        <THead>
          <TR>
            <TH>Run</TH>
            {showAutomation && <TH>Automation</TH>}
            <TH>Status</TH>
            <TH>Entity</TH>
            <TH>Trigger</TH>
            <TH className={WIDE_ONLY}>Version</TH>
            <TH>Started</TH>
            <TH align="right">Duration</TH>
          </TR>
        </THead>
        <TBody>
          {data.items.map((run) => (
            <TR key={run.id} className="hover:bg-zinc-50" data-testid="run-row" data-run-id={run.id}>
              <TD className="whitespace-nowrap">
                <Link
                  href={`/runs/${run.id}`}
                  className="font-mono text-xs font-medium text-zinc-900 underline-offset-2 hover:underline"
                  aria-label={`Run ${shortRunId(run.id)}${run.automationName ? ` of ${run.automationName}` : ""}`}
                >
                  {shortRunId(run.id)}
                </Link>
              </TD>
              {showAutomation && (
                <TD className="max-w-56 min-w-32 break-words text-zinc-900">
                  {run.automationName ?? <span className="text-zinc-500">Deleted automation</span>}
                </TD>
              )}
              <TD>
                <div className="flex flex-col items-start gap-1">
                  <RunStatusBadge
                    status={run.status}
                    awaitingApproval={run.awaitingApproval}
                    actionsTaken={run.actionsTaken}
                  />
                  {(!run.awaitingApproval || run.fate?.continues === false) && (
                    <WaitingLine
                      run={run}
                      className="text-xs text-zinc-600"
                      stacked
                      doomedClassName="max-w-64 text-xs text-amber-800"
                    />
                  )}
                  {(run.status === "cancelled" || run.status === "held_out") && run.reason && (
                    <span className="max-w-64 text-xs break-words text-zinc-600">{run.reason}</span>
                  )}
                  {(run.status === "failed" || run.status === "partial") && run.error && (
                    <span className="max-w-64 text-xs break-words text-red-700">{run.error}</span>
                  )}
                </div>
              </TD>
              <TD className="max-w-48">
                <EntityLink domain={run.domain} id={run.entityId} label={run.entityLabel ?? undefined} />
              </TD>
              <TD className="font-mono text-xs">
                <EventType type={run.eventType} />
                <span className={`${NARROW_ONLY} block font-sans text-zinc-500`}>
                  version {run.automationVersion}
                </span>
              </TD>
              <TD className={`${WIDE_ONLY} whitespace-nowrap`}>v{run.automationVersion}</TD>
              <TD className="text-zinc-700">
                <RelativeTime value={run.startedAt ?? run.createdAt} stacked />
              </TD>
              <TD align="right" className="whitespace-nowrap">
                {run.durationMs !== null ? (
                  formatDuration(run.durationMs)
                ) : (
                  <span className="text-zinc-500">—</span>
                )}
              </TD>
            </TR>
          ))}
        </TBody>
      </Table>
      <LiveStatus error={error} />
      <Pager
        path={path}
        params={params}
        nextCursor={data.nextCursor}
        paged={paged}
        shown={data.items.length}
        noun={{ one: "run", many: "runs" }}
      />
    </>
  );
}

/** "order.created", free to wrap after its dots (whole words) when the column is narrow. */
function EventType({ type }: { type: string }) {
  return type.split(".").map((word, i, words) => (
    <Fragment key={i}>
      {word}
      {i < words.length - 1 && (
        <>
          .<wbr />
        </>
      )}
    </Fragment>
  ));
}
