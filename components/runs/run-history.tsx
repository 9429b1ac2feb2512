import { firstParam } from "@/components/entities/fields";
import { StaleLinkNotice } from "@/components/entities/stale-link-notice";
import { ButtonLink } from "@/components/ui/button-link";
import { EmptyState } from "@/components/ui/empty-state";
import { Notice } from "@/components/ui/notice";
import { listRuns, type RunPage } from "@/lib/automations/runs/history";
import { AppError } from "@/lib/errors";
import { isRerunnable } from "@/lib/automations/runs/rerunnable";
import { RerunButton, type RerunTarget } from "./rerun-button";
import { RunsFilters, type RunFilterValues } from "./runs-filters";
import { RunsTable } from "./runs-table";
import { nextDay, startOfDayIn } from "./zoned-day";

export const RUNS_PAGE_SIZE = 25;

type RawParams = Record<string, string | string[] | undefined>;

/** Reads the filters from the URL; dates stay as the days typed, converted for the API below. */
export function readRunFilters(params: RawParams): RunFilterValues & { cursor?: string } {
  return {
    automationId: firstParam(params.automationId),
    status: firstParam(params.status),
    domain: firstParam(params.domain),
    entityId: firstParam(params.entityId),
    from: firstParam(params.from),
    to: firstParam(params.to),
    platform: firstParam(params.platform),
    run: firstParam(params.run),
    cursor: firstParam(params.cursor),
  };
}

/** The `/api/v1/runs` query for these filters: the shop's days become instants. */
function apiQuery(values: RunFilterValues & { cursor?: string }, timeZone: string): Record<string, string> {
  const query: Record<string, string> = { limit: String(RUNS_PAGE_SIZE) };
  for (const key of ["automationId", "status", "domain", "entityId", "platform", "run", "cursor"] as const) {
    const value = values[key];
    if (value) query[key] = value;
  }
  // A malformed date goes through as typed, so the API's sentence explains it.
  if (values.from) query.from = startOfDayIn(values.from, timeZone) ?? values.from;
  if (values.to) query.to = startOfDayIn(nextDay(values.to), timeZone) ?? values.to;
  return query;
}

/**
 * What "Re-run these runs…" re-runs: the runs of a re-runnable status, of one automation or all —
 * offered only when the list is filtered by exactly that (so what is re-run is what is listed,
 * up to the newest 500).
 */
function rerunTarget(filters: RunFilterValues, fixedAutomationId?: string): RerunTarget | null {
  const { status, automationId, platform, ...others } = filters;
  if (!status || !isRerunnable(status) || Object.values(others).some(Boolean)) return null;
  return {
    kind: "filter",
    automationId: fixedAutomationId ?? automationId,
    status: status as "failed" | "partial" | "cancelled",
    platform: fixedAutomationId ? "all" : ((platform as "mine" | "builtin" | "all" | undefined) ?? "mine"),
  };
}

/**
 * Run history for the Runs page and an automation's Runs tab: filters, a live table, keyset pages.
 * `empty` renders when the shop (or the automation) has no runs at all.
 */
export async function RunHistory({
  tenantId,
  timeZone,
  path,
  params,
  automations,
  fixedAutomationId,
  canEdit = false,
  defaultPlatform,
  empty,
}: {
  tenantId: string;
  timeZone: string;
  path: string;
  params: RawParams;
  automations?: { id: string; name: string }[];
  fixedAutomationId?: string;
  /** Editors and admins may re-run the failed or cancelled runs listed. */
  canEdit?: boolean;
  /** Whose runs the list shows without a `platform` param (the API's default is all). */
  defaultPlatform?: "mine";
  empty: React.ReactNode;
}) {
  const values = readRunFilters(params);
  if (fixedAutomationId) values.automationId = undefined;
  if (fixedAutomationId || !defaultPlatform) values.platform = undefined;
  const { cursor, ...filters } = values;
  const query = apiQuery(values, timeZone);
  if (fixedAutomationId) query.automationId = fixedAutomationId;
  if (defaultPlatform && !fixedAutomationId && !query.platform) query.platform = defaultPlatform;
  const filtered = Object.values(filters).some(Boolean);

  let page: RunPage | null = null;
  let problem: string | null = null;
  try {
    page = await listRuns(tenantId, query);
  } catch (error) {
    // Bad filters or a stale cursor are the user's to fix; anything else is a real failure.
    if (error instanceof AppError && error.status < 500) problem = error.message;
    else throw error;
  }
  if (page && page.items.length === 0 && !filtered && !cursor) return <>{empty}</>;

  return (
    <>
      <RunsFilters path={path} values={filters} automations={automations} timeZone={timeZone} />
      {problem ? (
        cursor ? (
          <StaleLinkNotice error={problem} firstPage={path} />
        ) : (
          <div className="p-5">
            <Notice tone="warning" title="These filters cannot be applied">
              {problem}
            </Notice>
          </div>
        )
      ) : page && page.items.length === 0 ? (
        <EmptyState
          title={
            filters.run &&
            !Object.entries(filters).some(([key, value]) => value && key !== "run" && key !== "platform")
              ? `No run with the id '${filters.run}'`
              : // A record alone names it ("No runs for '#1022'"); with other filters, they are the reason too.
                filters.entityId &&
                  !Object.entries(filters).some(
                    ([key, value]) => value && key !== "entityId" && key !== "domain" && key !== "platform",
                  )
                ? `No runs for '${filters.entityId}'`
                : "No runs match these filters"
          }
          actions={<ButtonLink href={path}>Clear filters</ButtonLink>}
        >
          <p>
            Try another status or a wider date range. Dates are days in the shop&apos;s time zone ({timeZone}
            ), both included. A record is found by its order number (#1001), email, name or id.
          </p>
        </EmptyState>
      ) : page ? (
        <>
          {canEdit && rerunTarget(filters, fixedAutomationId) && (
            <div className="flex items-center justify-between gap-3 border-b border-zinc-200 px-5 py-3 text-sm text-zinc-600">
              <span>
                Fixed what made these runs fail? Run them again, from the start or from the step that failed.
              </span>
              <RerunButton target={rerunTarget(filters, fixedAutomationId)!} />
            </div>
          )}
          <RunsTable
            initial={page}
            apiQuery={new URLSearchParams(query).toString()}
            path={path}
            params={filters as Record<string, string | undefined>}
            paged={Boolean(cursor)}
            showAutomation={!fixedAutomationId}
          />
        </>
      ) : null}
    </>
  );
}
