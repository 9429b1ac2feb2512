import type { Metadata } from "next";
import Link from "next/link";
import { OutcomeChartLazy } from "@/components/insights/outcome-chart-lazy";
import { OutcomeCountLinks } from "@/components/insights/outcome-counts";
import { OutcomeTable } from "@/components/insights/outcome-table";
import { runsHref } from "@/components/insights/runs-href";
import { ButtonLink } from "@/components/ui/button-link";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { formatCount } from "@/components/ui/format";
import { PageHeader } from "@/components/ui/page-header";
import { RelativeTime } from "@/components/ui/relative-time";
import { requireCaller } from "@/lib/auth/session";
import { dashboard } from "@/lib/automations/insights/dashboard";
import { failuresOf, totalOf } from "@/lib/automations/insights/outcomes";
import { RUN_STATUS_INFO } from "@/components/runs/run-status";
import { Badge } from "@/components/ui/badge";
import { PLATFORMS, type Platform } from "@/lib/automations/insights/platform";
import { RevenueSummary } from "@/components/performance/revenue-summary";
import { attributedRevenueSummary } from "@/lib/automations/performance/earners";

export const metadata: Metadata = { title: "Dashboard" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const PLATFORM_WORDS: Record<Platform, string> = {
  mine: "Your automations",
  builtin: "Built-in",
  all: "All",
};

/** The app's home: what ran today and this week, and what needs someone. */
export default async function DashboardPage({ searchParams }: { searchParams: SearchParams }) {
  const caller = await requireCaller();
  const raw = (await searchParams).platform;
  const platform = PLATFORMS.find((p) => p === raw) ?? "mine";
  const [d, revenue] = await Promise.all([
    dashboard({ tenantId: caller.tenant.id, platform }),
    attributedRevenueSummary(caller.tenant.id),
  ]);
  const week = { from: d.weekStart, to: d.today, platform: d.platform };
  const today = { from: d.today, to: d.today, platform: d.platform };
  const weekTotal = totalOf(d.weekCounts);
  const weekFailures = failuresOf(d.weekCounts);
  return (
    <>
      <PageHeader
        title="Dashboard"
        description={
          <>
            What your automations did today and over the last 7 days, and what needs you. Days are the
            shop&apos;s ({d.timeZone}).{" "}
            {platform === "mine"
              ? "Counting your own automations' runs: the platform's built-in jobs (marking carts abandoned, invoices overdue, purging old runs) are left out."
              : platform === "builtin"
                ? "Counting only the platform's built-in jobs."
                : "Counting every run, the platform's built-in jobs included."}
          </>
        }
        actions={
          <nav aria-label="Whose runs" className="flex rounded-lg border border-zinc-200 p-0.5 text-sm">
            {PLATFORMS.map((p) => (
              <Link
                key={p}
                href={p === "mine" ? "/dashboard" : `/dashboard?platform=${p}`}
                aria-current={p === platform ? "page" : undefined}
                className={
                  p === platform
                    ? "rounded-md bg-zinc-900 px-3 py-1 font-medium text-white"
                    : "rounded-md px-3 py-1 text-zinc-700 hover:bg-zinc-100"
                }
              >
                {PLATFORM_WORDS[p]}
              </Link>
            ))}
          </nav>
        }
      />

      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Stat label="Runs today" value={totalOf(d.todayCounts)} href={runsHref(today)} testId="stat-today" />
        <Stat
          label="Failed or partly failed, last 7 days"
          value={weekFailures}
          href={runsHref({ ...week, status: "failed_or_partial" })}
          tone={weekFailures > 0 ? "danger" : undefined}
          testId="stat-failed"
          hint={
            d.weekCounts.partial > 0
              ? `${formatCount(d.weekCounts.failed)} failed, ${formatCount(d.weekCounts.partial)} partly failed`
              : undefined
          }
        />
        <Stat
          label="Approvals waiting"
          value={d.approvalsWaiting}
          href="/approvals"
          tone={d.approvalsWaiting > 0 ? "warning" : undefined}
          testId="stat-approvals"
        />
        <Stat
          label="Runs waiting"
          value={d.runsWaiting}
          href={runsHref({ status: "waiting", platform: d.platform })}
          testId="stat-waiting"
        />
      </div>

      <RevenueSummary summary={revenue} />

      <Card className="mt-6">
        <CardHeader
          title="Runs by outcome"
          description="Each number opens the runs it counts."
          actions={<ButtonLink href={runsHref({ platform: d.platform })}>All runs</ButtonLink>}
        />
        <CardBody className="space-y-4">
          <div className="grid gap-3 lg:grid-cols-[8rem_1fr] lg:items-center">
            <h3 className="text-sm font-medium text-zinc-900">Today</h3>
            <OutcomeCountLinks
              label="today"
              counts={d.todayCounts}
              href={(o) => runsHref({ ...today, status: o })}
            />
            <h3 className="text-sm font-medium text-zinc-900">Last 7 days</h3>
            <OutcomeCountLinks
              label="last 7 days"
              counts={d.weekCounts}
              href={(o) => runsHref({ ...week, status: o })}
            />
          </div>
          {weekTotal === 0 ? (
            <EmptyState
              title="No runs yet this week"
              actions={<ButtonLink href="/automations">Open automations</ButtonLink>}
            >
              <p>
                Publish and activate an automation: each time its trigger fires (an order is paid, a schedule
                comes round) it creates a run, and this chart shows them per day by how they ended.
              </p>
            </EmptyState>
          ) : (
            <figure>
              <OutcomeChartLazy perDay={d.perDay} />
              <figcaption className="mt-2 text-xs text-zinc-500">
                {formatCount(weekTotal)} runs in the last 7 days, per day, stacked by outcome; each outcome
                has its own pattern.
              </figcaption>
              <OutcomeTable perDay={d.perDay} caption="Runs per day in the last 7 days, by outcome" />
            </figure>
          )}
        </CardBody>
      </Card>

      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader
            title="Failed runs needing attention"
            description="The latest runs with an action that failed for good (failed or partly failed) nobody has re-run yet."
            actions={
              <ButtonLink href={runsHref({ status: "failed_or_partial", platform: d.platform })}>
                All failed
              </ButtonLink>
            }
          />
          {d.failed.length === 0 ? (
            <CardBody>
              <p className="text-sm text-zinc-600">
                No failed or partly failed run is waiting for you. When an action fails for good (an email
                refused, a webhook answering 4xx), its run shows up here until it is re-run, even if its other
                actions worked.
              </p>
            </CardBody>
          ) : (
            <ul className="divide-y divide-zinc-100" data-testid="failed-runs">
              {d.failed.map((run) => (
                <li key={run.id} className="px-5 py-3">
                  <div className="flex flex-wrap items-baseline justify-between gap-2">
                    <span className="flex min-w-0 items-baseline gap-2">
                      <Link
                        href={`/runs/${run.id}`}
                        className="text-sm font-medium text-zinc-900 hover:underline"
                      >
                        {run.automationName}
                      </Link>
                      <Badge tone={RUN_STATUS_INFO[run.status].tone}>
                        {RUN_STATUS_INFO[run.status].label}
                      </Badge>
                    </span>
                    <RelativeTime value={run.createdAt} brief className="text-xs text-zinc-500" />
                  </div>
                  {run.error && <p className="mt-1 line-clamp-2 text-xs text-red-800">{run.error}</p>}
                </li>
              ))}
            </ul>
          )}
        </Card>

        <Card>
          <CardHeader
            title="Waiting"
            description={
              <>
                {formatCount(d.runsWaiting)} {d.runsWaiting === 1 ? "run is" : "runs are"} waiting;{" "}
                <Link href="/approvals" className="underline">
                  {formatCount(d.approvalsWaiting)} {d.approvalsWaiting === 1 ? "approval" : "approvals"}
                </Link>{" "}
                to decide.
              </>
            }
            actions={<ButtonLink href="/waiting">Waiting list</ButtonLink>}
          />
          {d.nextResumes.length === 0 ? (
            <CardBody>
              <p className="text-sm text-zinc-600">
                Nothing is waiting. A run waits at a Wait step, an Approval or a retry, and resumes by itself
                when its time comes; the next ones to resume are listed here.
              </p>
            </CardBody>
          ) : (
            <ul className="divide-y divide-zinc-100" data-testid="next-resumes" aria-label="Next to resume">
              {d.nextResumes.map((w) => (
                <li key={`${w.runId}-${w.resumeAt}`} className="px-5 py-3">
                  <Link
                    href={`/runs/${w.runId}`}
                    className="text-sm font-medium text-zinc-900 hover:underline"
                  >
                    {w.automationName}
                  </Link>
                  <p className="mt-1 text-xs text-zinc-600">
                    At {w.label}, resumes <RelativeTime value={w.resumeAt} />
                  </p>
                </li>
              ))}
            </ul>
          )}
        </Card>
      </div>

      <Card className="mt-6">
        <CardHeader title="Busiest automations" description="Runs in the last 7 days." />
        {d.busiest.length === 0 ? (
          <CardBody>
            <p className="text-sm text-zinc-600">
              No automation has run in the last 7 days. Once one does, the five that run most are compared
              here.
            </p>
          </CardBody>
        ) : (
          <ol className="space-y-3 px-5 py-4" data-testid="busiest">
            {d.busiest.map((b) => (
              <li
                key={b.automationId}
                className="grid grid-cols-[minmax(0,14rem)_1fr_auto] items-center gap-3"
              >
                <Link
                  href={`/automations/${b.automationId}/insights`}
                  className="truncate text-sm font-medium text-zinc-900 hover:underline"
                >
                  {b.name}
                </Link>
                <div className="h-3 rounded-full bg-zinc-100" aria-hidden="true">
                  <div
                    className="h-3 rounded-full bg-zinc-700"
                    style={{ width: `${Math.max(2, (b.runs / d.busiest[0]!.runs) * 100)}%` }}
                  />
                </div>
                <span className="text-sm whitespace-nowrap tabular-nums">
                  <Link
                    href={runsHref({ ...week, automationId: b.automationId })}
                    className="font-semibold text-zinc-900 hover:underline"
                  >
                    {formatCount(b.runs)} {b.runs === 1 ? "run" : "runs"}
                  </Link>
                  {b.failed > 0 && (
                    <>
                      {" · "}
                      <Link
                        href={runsHref({
                          ...week,
                          automationId: b.automationId,
                          status: "failed_or_partial",
                        })}
                        className="text-red-800 hover:underline"
                      >
                        {formatCount(b.failed)} failed or partly failed
                      </Link>
                    </>
                  )}
                </span>
              </li>
            ))}
          </ol>
        )}
      </Card>
    </>
  );
}

function Stat({
  label,
  value,
  href,
  tone,
  testId,
  hint,
}: {
  label: string;
  value: number;
  href: string;
  tone?: "danger" | "warning";
  testId: string;
  /** A line under the number ("2 failed, 1 partly failed"). */
  hint?: string;
}) {
  return (
    <Link
      href={href}
      data-testid={testId}
      className="block rounded-xl border border-zinc-200 bg-white px-5 py-4 shadow-xs hover:border-zinc-400"
    >
      <p className="text-sm text-zinc-600">{label}</p>
      <p
        className={
          tone === "danger"
            ? "mt-1 text-2xl font-semibold text-red-700 tabular-nums"
            : tone === "warning"
              ? "mt-1 text-2xl font-semibold text-amber-700 tabular-nums"
              : "mt-1 text-2xl font-semibold text-zinc-900 tabular-nums"
        }
      >
        {formatCount(value)}
      </p>
      {hint && <p className="mt-1 text-xs text-zinc-600">{hint}</p>}
    </Link>
  );
}
