import { formatMoney } from "@/lib/money/format";
import { holdoutSentence } from "./holdout-stats";
import type { PerformanceReport } from "./report";

/** The report as a few plain lines (the CLI's `tillflow automations performance`). */
export function performanceLines(r: PerformanceReport): string[] {
  const money = (amount: string | number) => formatMoney(Number(amount), r.currency);
  const lines = [
    `${r.from} to ${r.to} (${r.days} days, ${r.timeZone})${r.version ? `, version ${r.version}` : ""}:`,
    `  recipients                 ${r.recipients}`,
    `  messages delivered         ${r.touches}`,
    `  conversions                ${r.conversions}`,
    `  attributed revenue         ${money(r.revenue)}`,
    `  revenue per recipient      ${r.revenuePerRecipient === null ? "—" : money(r.revenuePerRecipient)}`,
  ];
  for (const other of r.otherCurrencies)
    lines.push(
      `  also, in ${other.currency ?? "no currency"}   ${other.conversions} orders, ${formatMoney(Number(other.revenue), other.currency)} (not added in)`,
    );
  for (const v of r.byVersion)
    lines.push(
      `  version ${v.version}: ${v.recipients} recipients, ${v.conversions} conversions, ${money(v.revenue)}`,
    );
  if (r.holdout) {
    const sentence = holdoutSentence(r.holdout, r.days, (n) => money(n));
    lines.push(
      `  holdout ${r.holdout.percent}%: ${sentence ?? "not enough customers yet to compare (2 a group at least)."}`,
    );
  }
  return lines;
}
