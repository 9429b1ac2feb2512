import Link from "next/link";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { formatCount } from "@/components/ui/format";
import { Table, TBody, TD, TH, THead, TR } from "@/components/ui/table";
import type { AttributedRevenueSummary } from "@/lib/automations/performance/earners";
import { formatMoney } from "@/lib/money/format";

/** The dashboard's "Does it pay": the automations' attributed revenue (last 30 days) and the top earners. */
export function RevenueSummary({ summary }: { summary: AttributedRevenueSummary }) {
  const s = summary;
  const money = (amount: string) => formatMoney(Number(amount), s.currency);
  const empty = s.conversions === 0 && s.otherCurrencies.length === 0;
  return (
    <div className="mt-6" data-testid="revenue-summary">
      <Card>
        <CardHeader
          title="What your automations earned"
          description={`Orders attributed to your automations' messages in the last ${s.days} days.`}
        />
        {empty ? (
          <EmptyState title="No orders attributed yet">
            <p>
              An order is credited to the last email a customer got within {s.windowDays}{" "}
              {s.windowDays === 1 ? "day" : "days"} (change the goal and the window in{" "}
              <Link href="/settings/automations" className="underline">
                Settings → Automations
              </Link>
              ). Once customers who got a message buy, their orders and the automations that earned them show
              here.
            </p>
          </EmptyState>
        ) : (
          <CardBody className="space-y-4">
            <div>
              <p className="text-sm text-zinc-600">Attributed revenue, last {s.days} days</p>
              <p
                className="mt-1 text-2xl font-semibold text-zinc-900 tabular-nums"
                data-testid="revenue-total"
              >
                {money(s.revenue)}
              </p>
              <p className="mt-1 text-xs text-zinc-500">
                {formatCount(s.conversions)} {s.conversions === 1 ? "order" : "orders"}
                {s.otherCurrencies.length > 0 &&
                  ` · also, not added in: ${s.otherCurrencies
                    .map(
                      (c) =>
                        `${formatCount(c.conversions)} ${c.conversions === 1 ? "order" : "orders"} ${formatMoney(Number(c.revenue), c.currency)}`,
                    )
                    .join(", ")}`}
              </p>
            </div>
            {s.top.length > 0 && (
              <Table
                caption={`Top earners: the automations with the most attributed revenue, last ${s.days} days`}
              >
                <THead>
                  <TR>
                    <TH>Automation</TH>
                    <TH align="right">Orders</TH>
                    <TH align="right">Revenue</TH>
                  </TR>
                </THead>
                <TBody>
                  {s.top.map((t) => (
                    <TR key={t.automationId}>
                      <TD>
                        <Link href={`/automations/${t.automationId}/performance`} className="hover:underline">
                          {t.name}
                        </Link>
                      </TD>
                      <TD align="right">{formatCount(t.conversions)}</TD>
                      <TD align="right">{money(t.revenue)}</TD>
                    </TR>
                  ))}
                </TBody>
              </Table>
            )}
          </CardBody>
        )}
      </Card>
    </div>
  );
}
