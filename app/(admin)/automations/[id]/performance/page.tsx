import type { Metadata } from "next";
import Link from "next/link";
import { AutomationOpsHeader } from "@/components/runs/automation-tabs";
import { loadAutomationOr404 } from "@/components/runs/load-automation";
import { HoldoutForm } from "@/components/performance/holdout-form";
import { RevenueChartLazy } from "@/components/performance/revenue-chart-lazy";
import { GroupTable, percent } from "@/components/performance/group-table";
import { SplitReport } from "@/components/performance/split-report";
import { PeriodBar } from "@/components/insights/period-bar";
import { dayLabel } from "@/components/insights/outcomes";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { formatCount } from "@/components/ui/format";
import { Notice } from "@/components/ui/notice";
import { Table, TBody, TD, TH, THead, TR } from "@/components/ui/table";
import { requireCaller } from "@/lib/auth/session";
import { hasRole } from "@/lib/identity/roles";
import { formatMoney } from "@/lib/money/format";
import { automationPerformance } from "@/lib/automations/performance/report";
import { holdoutSentence } from "@/lib/automations/performance/holdout-stats";
import { GOAL_LABELS } from "@/lib/automations/performance/words";

export const metadata: Metadata = { title: "Automation performance" };

type Params = Promise<{ id: string }>;
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** Does it pay: an automation's conversions, attributed revenue, by day, step and version, and its holdout. */
export default async function AutomationPerformancePage({
  params,
  searchParams,
}: {
  params: Params;
  searchParams: SearchParams;
}) {
  const caller = await requireCaller();
  const automation = await loadAutomationOr404(caller.tenant.id, (await params).id);
  const sp = await searchParams;
  const days = sp.days === "7" ? 7 : sp.days === "90" ? 90 : 30;
  const today = new Date();
  const from = new Date(today.getTime() - (days - 1) * 86_400_000).toISOString().slice(0, 10);
  const r = await automationPerformance(caller.tenant.id, automation.id, { from });
  const money = (amount: string | number) => formatMoney(Number(amount), r.currency);
  const base = `/automations/${automation.id}/performance`;
  const goal = GOAL_LABELS[r.settings.goal].toLowerCase();
  const sentence = r.holdout ? holdoutSentence(r.holdout, r.days, (n) => money(n)) : null;
  return (
    <>
      <AutomationOpsHeader automation={automation} />
      <PeriodBar base={base} periods={[7, 30, 90]} days={days} defaultDays={30}>
        {r.from} to {r.to} in the shop&apos;s time zone ({r.timeZone}). A conversion is {goal} within{" "}
        {r.settings.windowDays} {r.settings.windowDays === 1 ? "day" : "days"} of a message from this
        automation, when it was the customer&apos;s latest.{" "}
        <Link href="/settings/automations" className="underline">
          Change the goal
        </Link>
      </PeriodBar>

      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Fact label="Attributed revenue" testId="fact-revenue">
          {money(r.revenue)}
        </Fact>
        <Fact
          label="Conversions"
          testId="fact-conversions"
          hint={`Orders from ${formatCount(r.recipients)} customers reached`}
        >
          {formatCount(r.conversions)}
        </Fact>
        <Fact
          label="Conversion rate"
          testId="fact-rate"
          hint="Conversions out of the customers its messages reached."
        >
          {percent(r.recipients > 0 ? r.conversions / r.recipients : null)}
        </Fact>
        <Fact label="Revenue per recipient" testId="fact-per-recipient">
          {r.revenuePerRecipient === null ? "—" : money(r.revenuePerRecipient)}
        </Fact>
      </div>
      {r.otherCurrencies.length > 0 && (
        <Notice tone="info" className="mt-4" title="Orders in other currencies, not added in">
          {r.otherCurrencies
            .map(
              (c) =>
                `${formatCount(c.conversions)} ${c.conversions === 1 ? "order" : "orders"}, ${formatMoney(Number(c.revenue), c.currency)}`,
            )
            .join(" · ")}
        </Notice>
      )}

      <Card className="mt-6">
        <CardHeader
          title="Attributed revenue per day"
          description={`In ${r.currency ?? "the orders' currency"}.`}
        />
        <CardBody>
          <figure>
            <RevenueChartLazy byDay={r.byDay} currency={r.currency} />
            <figcaption className="sr-only">
              {money(r.revenue)} attributed over {r.days} days, per day.
            </figcaption>
          </figure>
          <details className="mt-3 text-sm">
            <summary className="cursor-pointer text-zinc-700">The days as a table</summary>
            <Table caption="Attributed revenue and conversions per day">
              <THead>
                <TR>
                  <TH>Day</TH>
                  <TH align="right">Messages</TH>
                  <TH align="right">Conversions</TH>
                  <TH align="right">Revenue</TH>
                </TR>
              </THead>
              <TBody>
                {r.byDay
                  .filter((d) => d.touches > 0 || d.conversions > 0)
                  .map((d) => (
                    <TR key={d.day}>
                      <TD>{dayLabel(d.day)}</TD>
                      <TD align="right">{formatCount(d.touches)}</TD>
                      <TD align="right">{formatCount(d.conversions)}</TD>
                      <TD align="right">{money(d.revenue)}</TD>
                    </TR>
                  ))}
              </TBody>
            </Table>
          </details>
        </CardBody>
      </Card>

      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader title="By step" description="Each message step: who it reached and what followed." />
          <Breakdown
            caption="Conversions and revenue by step"
            first="Step"
            rows={r.bySteps.map((s) => ({
              key: s.nodeId,
              name: s.inGraph ? s.label : `${s.label} (not in this version)`,
              ...s,
            }))}
            money={money}
          />
        </Card>
        <Card>
          <CardHeader
            title="By version"
            description="Each published version on its own row, so an edit's effect shows."
          />
          <Breakdown
            caption="Conversions and revenue by version"
            first="Version"
            rows={r.byVersion.map((v) => ({ key: String(v.version), name: `Version ${v.version}`, ...v }))}
            money={money}
          />
        </Card>
      </div>

      {r.splits.flatMap((s) =>
        s.stats && s.nodeId
          ? [
              <div key={s.nodeId} className="mt-6" data-testid="split-report">
                <SplitReport
                  title={`Split into ${s.branches.map((b) => b.label).join(", ")}`}
                  report={s.stats}
                  currency={r.currency ?? "EUR"}
                  automationId={automation.id}
                  splitId={s.nodeId}
                  canEdit={hasRole(caller.role, "editor")}
                />
              </div>,
            ]
          : [],
      )}
      {r.splits.some((s) => !s.stats) && (
        <Card className="mt-6">
          <CardHeader
            title="Branches no longer in the flow"
            description="Customers each branch's messages reached, and what they brought."
          />
          <GroupTable
            caption="Conversions and revenue by branches no longer in the flow"
            first="Branch"
            rows={r.splits
              .filter((s) => !s.stats)
              .flatMap((s) =>
                s.branches.map((b) => ({
                  key: `${s.nodeId}-${b.id}`,
                  name: b.label,
                  customers: b.entered,
                  conversions: b.conversions,
                  rate: b.rate,
                  perCustomer: b.revenuePerRecipient,
                })),
              )}
            money={money}
          />
        </Card>
      )}

      <Card className="mt-6">
        <CardHeader
          title="Would they have bought anyway?"
          description="Hold out a share of customers: they get nothing from this automation, and the difference is what it adds."
        />
        <CardBody className="space-y-4">
          {r.holdout && (
            <div data-testid="holdout">
              <p className="text-lg font-semibold text-zinc-900" data-testid="holdout-sentence">
                {sentence ?? "Not enough customers yet: each group needs at least 2 to compare."}
              </p>
              <GroupTable
                caption="Customers who got the automation and customers held out"
                first="Group"
                bought="Bought"
                perCustomer="Revenue per customer"
                rows={(
                  [
                    ["Got the automation", r.holdout.treated],
                    ["Held out", r.holdout.heldOut],
                  ] as const
                ).map(([name, g]) => ({
                  key: name,
                  name,
                  customers: g.customers,
                  conversions: g.conversions,
                  rate: g.rate,
                  perCustomer: g.revenuePerCustomer,
                }))}
                money={money}
              />
              {r.holdout.rateDifference && (
                <p className="mt-2 text-sm text-zinc-600">
                  Conversion rate difference: {signedPoints(r.holdout.rateDifference.estimate)} (
                  {signedPoints(r.holdout.rateDifference.low)} to{" "}
                  {signedPoints(r.holdout.rateDifference.high)}), 95% range. Revenue per customer:{" "}
                  {signedMoney(r.holdout.revenuePerCustomerDifference!.estimate, money)}.
                </p>
              )}
            </div>
          )}
          <HoldoutForm
            automationId={automation.id}
            percent={automation.holdoutPercent}
            canEdit={hasRole(caller.role, "editor")}
          />
        </CardBody>
      </Card>
      <p className="mt-4 text-sm text-zinc-600">
        <a
          href={`/api/v1/automations/${automation.id}/attributions?format=csv&from=${r.from}&to=${r.to}`}
          className="underline"
        >
          Download the attributed orders (CSV)
        </a>
      </p>
    </>
  );
}

function signedMoney(n: number, money: (amount: number) => string): string {
  const cents = Math.round(n * 100) / 100;
  return `${cents > 0 ? "+" : cents < 0 ? "−" : ""}${money(Math.abs(cents))}`;
}

function signedPoints(d: number): string {
  const points = Math.round(d * 1000) / 10;
  return `${points > 0 ? "+" : points < 0 ? "−" : ""}${Math.abs(points).toFixed(1)} pts`;
}

function Breakdown({
  caption,
  first,
  rows,
  money,
}: {
  caption: string;
  first: string;
  rows: { key: string; name: string; recipients: number; conversions: number; revenue: string }[];
  money: (amount: string | number) => string;
}) {
  if (rows.length === 0)
    return (
      <CardBody>
        <p className="text-sm text-zinc-600">No message went out in this period.</p>
      </CardBody>
    );
  return (
    <Table caption={caption}>
      <THead>
        <TR>
          <TH>{first}</TH>
          <TH align="right">Reached</TH>
          <TH align="right">Conversions</TH>
          <TH align="right">Revenue</TH>
        </TR>
      </THead>
      <TBody>
        {rows.map((row) => (
          <TR key={row.key}>
            <TD>{row.name}</TD>
            <TD align="right">{formatCount(row.recipients)}</TD>
            <TD align="right">{formatCount(row.conversions)}</TD>
            <TD align="right">{money(row.revenue)}</TD>
          </TR>
        ))}
      </TBody>
    </Table>
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
