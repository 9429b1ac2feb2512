"use client";

import dynamic from "next/dynamic";
import type { OutcomeChartProps } from "./outcome-chart";

/**
 * The outcome chart, loaded in the browser only and only on the pages that show it: recharts stays
 * out of every other page's bundle (the flow editor's above all).
 */
export const OutcomeChartLazy = dynamic<OutcomeChartProps>(() => import("./outcome-chart"), {
  ssr: false,
  loading: () => <div className="h-60 animate-pulse rounded-lg bg-zinc-50" />,
});
