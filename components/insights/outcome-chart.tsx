"use client";

import { useId } from "react";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { OUTCOMES, type DayCounts } from "@/lib/automations/insights/outcomes";
import { OutcomePatternDefs } from "./outcome-patterns";
import { OUTCOME_STYLE, dayLabel, shortDayLabel } from "./outcomes";

export interface OutcomeChartProps {
  perDay: DayCounts[];
  /** Height in px. Default 240. */
  height?: number;
}

/**
 * Runs per day, stacked by outcome, each outcome a colour and a pattern. Drawn in the browser only
 * (recharts measures its container); the numbers are also in a table beside it for screen readers,
 * so the chart itself is hidden from them.
 */
export default function OutcomeChart({ perDay, height = 240 }: OutcomeChartProps) {
  const prefix = `outcome${useId().replace(/[^a-zA-Z0-9]/g, "")}`;
  // A month of days gets short ticks ("Nov 5"); the tooltip always names the whole day.
  const long = perDay.length > 10;
  const data = perDay.map((d) => ({
    day: dayLabel(d.day),
    tick: long ? shortDayLabel(d.day) : dayLabel(d.day),
    ...d.counts,
  }));
  // Only outcomes that occur get a series (and a legend entry), in the fixed order.
  const shown = OUTCOMES.filter((o) => perDay.some((d) => d.counts[o] > 0));
  return (
    <div aria-hidden="true" style={{ height }} data-testid="outcome-chart">
      <ResponsiveContainer width="100%" height="100%">
        {/* No keyboard layer: the chart is hidden from assistive technology (the table beside it
            says the same), so nothing in it may take focus. */}
        <BarChart data={data} margin={{ top: 8, right: 8, left: -16, bottom: 0 }} accessibilityLayer={false}>
          <OutcomePatternDefs prefix={prefix} />
          <CartesianGrid vertical={false} stroke="#e4e4e7" />
          <XAxis
            dataKey="tick"
            tickLine={false}
            axisLine={false}
            fontSize={12}
            interval="preserveStartEnd"
            minTickGap={16}
          />
          <YAxis allowDecimals={false} tickLine={false} axisLine={false} fontSize={12} />
          <Tooltip
            cursor={{ fill: "#f4f4f5" }}
            labelFormatter={(_, payload) => String(payload?.[0]?.payload?.day ?? "")}
          />
          {/* In the outcomes' own order (succeeded first), not sorted by name. */}
          <Legend iconType="square" wrapperStyle={{ fontSize: 12 }} itemSorter={null} />
          {shown.map((o) => (
            <Bar
              key={o}
              dataKey={o}
              name={OUTCOME_STYLE[o].label}
              stackId="runs"
              fill={`url(#${prefix}-${o})`}
              stroke={OUTCOME_STYLE[o].color}
              isAnimationActive={false}
            />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
