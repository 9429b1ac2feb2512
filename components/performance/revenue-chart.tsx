"use client";

import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatMoney } from "@/lib/money/format";
import { dayLabel, shortDayLabel } from "@/components/insights/outcomes";

export interface RevenueChartProps {
  byDay: { day: string; revenue: string; conversions: number }[];
  currency: string | null;
  /** Height in px. Default 220. */
  height?: number;
}

/**
 * Attributed revenue per shop day. Drawn in the browser only (recharts measures its container);
 * the same numbers are in the table under it, so the chart is hidden from screen readers.
 */
export default function RevenueChart({ byDay, currency, height = 220 }: RevenueChartProps) {
  const long = byDay.length > 10;
  const data = byDay.map((d) => ({
    day: dayLabel(d.day),
    tick: long ? shortDayLabel(d.day) : dayLabel(d.day),
    revenue: Number(d.revenue),
    conversions: d.conversions,
  }));
  return (
    <div aria-hidden="true" style={{ height }} data-testid="revenue-chart">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 8, right: 8, left: 8, bottom: 0 }} accessibilityLayer={false}>
          <CartesianGrid vertical={false} stroke="#e4e4e7" />
          <XAxis
            dataKey="tick"
            tickLine={false}
            axisLine={false}
            fontSize={12}
            interval="preserveStartEnd"
            minTickGap={16}
          />
          <YAxis
            tickLine={false}
            axisLine={false}
            fontSize={12}
            tickFormatter={(v: number) => formatMoney(v, currency).replace(/\.00$/, "")}
          />
          <Tooltip
            cursor={{ fill: "#f4f4f5" }}
            labelFormatter={(_, payload) => String(payload?.[0]?.payload?.day ?? "")}
            formatter={(value) => [formatMoney(Number(value), currency), "Attributed revenue"]}
          />
          <Bar dataKey="revenue" name="Attributed revenue" fill="#059669" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
