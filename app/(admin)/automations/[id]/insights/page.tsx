import type { Metadata } from "next";
import Link from "next/link";
import { FunnelCanvas } from "@/components/insights/funnel-canvas";
import { OutcomeChartLazy } from "@/components/insights/outcome-chart-lazy";
import { OutcomeCountLinks } from "@/components/insights/outcome-counts";
import { PeriodBar } from "@/components/insights/period-bar";
import { OutcomeTable } from "@/components/insights/outcome-table";
import { runsHref } from "@/components/insights/runs-href";
import { AutomationOpsHeader } from "@/components/runs/automation-tabs";
import { formatDuration } from "@/components/runs/duration";
import { loadAutomationOr404 } from "@/components/runs/load-automation";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { formatCount } from "@/components/ui/format";
import { RelativeTime } from "@/components/ui/relative-time";
import { Table, TBody, TD, TH, THead, TR } from "@/components/ui/table";
import { requireCaller } from "@/lib/auth/session";
import { automationInsights } from "@/lib/automations/insights/automation";
import { forRole } from "@/lib/automations/nodes/editor-only";
import { messageCounts } from "@/lib/automations/insights/messages";

export const metadata: Metadata = { title: "Automation insights" };

type Params = Promise<{ id: string }>;
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const WAIT_KIND_WORDS: Record<string, string> = {
  delay: "wait",
  approval: "approval",
  retry: "retry",
  later: "later step",
};

/** One automation's runs as pictures: per day by outcome, success rate, durations, waits and the step funnel. */
export default async function AutomationInsightsPage({
  params,
  searchParams,
}: {
  params: Params;
  searchParams: SearchParams;
}) {
  const caller = await requireCaller();
  const automation = await loadAutomationOr404(caller.tenant.id, (await params).id);
  const days = (await searchParams).days === "30" ? 30 : 7;
  const [i, messages] = await Promise.all([
    automationInsights({ tenantId: caller.tenant.id, automationId: automation.id, days }),
    messageCounts(caller.tenant.id, automation.id, { days }),
  ]);
  const base = `/automations/${automation.id}/insights`;
  const window = { automationId: automation.id, from: i.firstDay, to: i.today };
  const counts = Object.fromEntries(i.funnel.map((f) => [f.nodeId, f.runs]));
  const reruns = Object.fromEntries(i.funnel.map((f) => [f.nodeId, f.reruns]));
  const firstRuns = i.runs - i.reruns;
  return (
    <>
      <AutomationOpsHeader automation={automation} />
      <PeriodBar base={base} periods={[7, 30]} days={days} defaultDays={7}>
        The last {days} days, {i.firstDay} to {i.today} in the shop&apos;s time zone ({i.timeZone}).
      </PeriodBar>

      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Fact label="Runs" testId="fact-runs">
          <Link href={runsHref(window)} className="hover:underline">
            {formatCount(i.runs)}
          </Link>
        </Fact>
        <Fact
          label="Success rate"
          testId="fact-success"
          hint="Succeeded out of the runs that acted (succeeded, partly failed, failed); runs with nothing to do are left out."
        >
          {i.successRate === null ? "—" : `${Math.round(i.successRate * 100)}%`}
        </Fact>
        <Fact
          label="Median duration (p50)"
          testId="fact-p50"
          hint="From its first step to settled, waits included."
        >
          {formatDuration(i.p50Ms)}
        </Fact>
        <Fact label="Slowest 5% take over (p95)" testId="fact-p95">
          {formatDuration(i.p95Ms)}
        </Fact>
      </div>

      {messages.sent +
        messages.skippedConsent +
        messages.skippedUnsubscribed +
        messages.deferred +
        messages.waitedQuietHours >
        0 && (
        <div className="mt-4 grid gap-4 sm:grid-cols-3" aria-label="Messages to customers" role="group">
          <Fact label="Messages sent" testId="fact-messages-sent">
            {formatCount(messages.sent)}
          </Fact>
          <Fact
            label="Skipped: no marketing consent"
            testId="fact-skipped-consent"
            hint="Marketing steps skip customers who do not accept marketing."
          >
            {formatCount(messages.skippedConsent)}
          </Fact>
          <Fact
            label="Skipped: unsubscribed"
            testId="fact-skipped-unsubscribed"
            hint="Customers who unsubscribed (the email's link, their store) get no marketing."
          >
            {formatCount(messages.skippedUnsubscribed)}
          </Fact>
          <Fact
            label="Waited for quiet hours"
            testId="fact-waited-quiet"
            hint="Marketing messages due at night in the customer's time wait until quiet hours end."
          >
            {formatCount(messages.waitedQuietHours)}
          </Fact>
          <Fact
            label="Deferred by the shop's cap"
            testId="fact-deferred"
            hint="Over the shop's limit per customer, a message waits for its turn, by priority."
          >
            {formatCount(messages.deferred)}
          </Fact>
          <Fact
            label="Skipped: expired or path changed"
            testId="fact-expired"
            hint="Deferred past this automation's expiry, or a condition on its path no longer held when its turn came."
          >
            {formatCount(messages.expired + messages.skippedConditions)}
          </Fact>
        </div>
      )}

      {i.runs === 0 ? (
        <Card className="mt-6">
          <EmptyState title={`No runs in the last ${days} days`}>
            <p>
              {automation.status === "active"
                ? "It runs each time its trigger fires; its runs per day, success rate and the steps they reach will show here."
                : "Publish and activate it: each time its trigger fires it creates a run, and this page charts them per day, with how many reached each step."}
            </p>
          </EmptyState>
        </Card>
      ) : (
        <>
          <Card className="mt-6">
            <CardHeader
              title="Runs per day"
              description="Stacked by outcome; each number opens the runs it counts."
            />
            <CardBody className="space-y-4">
              <OutcomeCountLinks
                label={`last ${days} days`}
                counts={i.totals}
                href={(o) => runsHref({ ...window, status: o })}
              />
              <figure>
                <OutcomeChartLazy perDay={i.perDay} />
                <figcaption className="sr-only">
                  {formatCount(i.runs)} runs in the last {days} days, per day, stacked by outcome.
                </figcaption>
                <OutcomeTable
                  perDay={i.perDay}
                  caption={`Runs per day in the last ${days} days, by outcome`}
                />
              </figure>
            </CardBody>
          </Card>

          <Card className="mt-6">
            <CardHeader
              title="Where runs go"
              description={
                i.reruns > 0
                  ? `How many of the ${formatCount(firstRuns)} runs of the last ${days} days reached each step, and apart from them how many of the ${formatCount(i.reruns)} re-runs. A code step counts its own actions with it.`
                  : `How many of the ${formatCount(i.runs)} runs of the last ${days} days reached each step. A code step counts its own actions with it.`
              }
            />
            <CardBody className="grid gap-6 lg:grid-cols-[1fr_18rem]">
              <FunnelCanvas
                graph={forRole(i.graph, caller.role)}
                counts={counts}
                reruns={reruns}
                days={days}
              />
              <div>
                <h3 className="text-sm font-medium text-zinc-900" id="funnel-list-title">
                  Runs that reached each step
                </h3>
                <ol
                  className="mt-2 space-y-1.5 text-sm"
                  aria-labelledby="funnel-list-title"
                  data-testid="funnel-list"
                >
                  {i.funnel.map((f) => (
                    <li key={f.nodeId} className="flex items-baseline justify-between gap-3">
                      <span className="min-w-0 text-zinc-700">
                        {f.label}
                        {!f.inGraph && <span className="text-xs text-zinc-500"> (not in this version)</span>}
                      </span>
                      <span className="font-medium whitespace-nowrap text-zinc-900 tabular-nums">
                        {formatCount(f.runs)}
                        {firstRuns > 0 && (
                          <span className="ml-1 text-xs font-normal text-zinc-500">
                            {Math.round((f.runs / firstRuns) * 100)}%
                          </span>
                        )}
                        {f.reruns > 0 && (
                          <span
                            className="ml-1 text-xs font-normal text-zinc-600"
                            data-testid="funnel-reruns"
                          >
                            + {f.reruns === 1 ? "1 re-run" : `${formatCount(f.reruns)} re-runs`}
                          </span>
                        )}
                      </span>
                    </li>
                  ))}
                </ol>
              </div>
            </CardBody>
          </Card>
        </>
      )}

      <Card className="mt-6">
        <CardHeader
          title="Waiting now"
          description="Runs paused at each step right now, whenever they started."
          actions={
            <Link href={`/automations/${automation.id}/waiting`} className="text-sm text-zinc-700 underline">
              Waiting list
            </Link>
          }
        />
        {i.waiting.length === 0 ? (
          <CardBody>
            <p className="text-sm text-zinc-600">
              No run is waiting. Runs wait at Wait, Wait until and Approval steps, or for a retry, and resume
              by themselves.
            </p>
          </CardBody>
        ) : (
          <Table caption="Runs waiting now, per step">
            <THead>
              <TR>
                <TH>Step</TH>
                <TH align="right">Waiting</TH>
                <TH>Next resumes</TH>
              </TR>
            </THead>
            <TBody>
              {i.waiting.map((w) => (
                <TR key={`${w.nodeId}-${w.kind}`} data-testid="waiting-node">
                  <TD>
                    <span className="font-medium text-zinc-900">{w.label}</span>
                    <span className="ml-2 text-xs text-zinc-500">{WAIT_KIND_WORDS[w.kind] ?? w.kind}</span>
                  </TD>
                  <TD align="right">{formatCount(w.count)}</TD>
                  <TD>
                    <RelativeTime value={w.nextResumeAt} />
                  </TD>
                </TR>
              ))}
            </TBody>
          </Table>
        )}
      </Card>
    </>
  );
}

function Fact({
  label,
  hint,
  testId,
  children,
}: {
  label: string;
  hint?: string;
  testId: string;
  children: React.ReactNode;
}) {
  return (
    <div className="rounded-xl border border-zinc-200 bg-white px-5 py-4 shadow-xs" data-testid={testId}>
      <p className="text-sm text-zinc-600">{label}</p>
      <p className="mt-1 text-2xl font-semibold text-zinc-900 tabular-nums">{children}</p>
      {hint && <p className="mt-1 text-xs text-zinc-500">{hint}</p>}
    </div>
  );
}
