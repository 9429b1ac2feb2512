import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { formatCount } from "@/components/ui/format";
import { Table, TBody, TD, TH, THead, TR } from "@/components/ui/table";
import type { SplitReport as Report } from "@/lib/automations/performance/split-stats";
import { formatMoney } from "@/lib/money/format";
import { SendDownButton } from "./send-down-button";

export interface SplitReportProps {
  /** The split's name on the canvas ("Split customers: Group A 50 % · Group B 50 %"). */
  title: string;
  /** `decideSplit`'s answer for its branches. */
  report: Report;
  /** The shop's currency, which revenue per recipient is written in. */
  currency: string;
  automationId: string;
  splitId: string;
  /** Whether the viewer may edit (an editor or admin): only then the Send everyone button. */
  canEdit: boolean;
}

/** "73 %", never "100 %" or "0 %" for what is only very likely. */
export function formatChance(p: number): string {
  if (p >= 0.995) return "over 99 %";
  if (p < 0.005) return "under 1 %";
  return `${Math.round(p * 100)} %`;
}

function percent(rate: number): string {
  return `${(rate * 100).toFixed(1)} %`;
}

/** The one line a merchant reads first: who wins, or why nobody yet. */
export function verdictText(report: Report): string {
  const { decision } = report;
  if (decision.kind === "winner")
    return `${decision.label} wins (${formatChance(decision.probability)} chance it's the best)`;
  if (decision.morePerBranch === null)
    return "No winner yet — it needs a few conversions before it can tell how many more customers it needs";
  return `No winner yet — about ${formatCount(decision.morePerBranch)} more customers per group needed`;
}

/**
 * A split's report, per branch: customers, conversions, conversion rate, revenue per recipient and
 * the chance each is the best; then the verdict and, once there is a winner, the button that
 * sends everyone down it. Plain props: the Performance tab hands it `decideSplit`'s answer.
 */
export function SplitReport({ title, report, currency, automationId, splitId, canEdit }: SplitReportProps) {
  const { decision, rule } = report;
  return (
    <Card>
      <CardHeader level={3} title={title} description={verdictText(report)} />
      <Table caption={`How each group of '${title}' is doing`}>
        <THead>
          <TR>
            <TH>Group</TH>
            <TH align="right">Customers</TH>
            <TH align="right">Conversions</TH>
            <TH align="right">Conversion rate</TH>
            <TH align="right">Revenue per recipient</TH>
            <TH>Chance it&apos;s the best</TH>
          </TR>
        </THead>
        <TBody>
          {report.branches.map((b) => (
            <TR key={b.id} data-branch={b.id}>
              <TD className="font-medium text-zinc-900">
                {b.label}
                {decision.kind === "winner" && decision.branch === b.id && (
                  <span className="ml-2 rounded bg-emerald-50 px-1.5 py-0.5 text-xs font-medium text-emerald-800">
                    Winner
                  </span>
                )}
              </TD>
              <TD align="right">{formatCount(b.entered)}</TD>
              <TD align="right">{formatCount(b.conversions)}</TD>
              <TD align="right">{percent(b.conversionRate)}</TD>
              <TD align="right">{formatMoney(b.revenuePerRecipient, currency)}</TD>
              <TD>{formatChance(b.probabilityBest)} chance it&apos;s the best</TD>
            </TR>
          ))}
        </TBody>
      </Table>
      <CardBody className="flex flex-wrap items-start justify-between gap-3 border-t border-zinc-200">
        <p className="max-w-prose text-xs text-zinc-600">
          A winner is declared once every group has at least {formatCount(rule.minPerBranch)} customers and
          one group has a {formatChance(rule.threshold)} chance of having the best conversion rate — by a test
          that stays honest however often you look. Revenue per recipient is shown, not used to pick the
          winner.
        </p>
        {decision.kind === "winner" && canEdit && (
          <SendDownButton
            automationId={automationId}
            splitId={splitId}
            branch={decision.branch}
            label={decision.label}
          />
        )}
      </CardBody>
    </Card>
  );
}
