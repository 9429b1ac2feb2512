"use client";

import dynamic from "next/dynamic";
import type { RevenueChartProps } from "./revenue-chart";

/** The revenue chart, loaded in the browser only, on the Performance tab only (recharts stays out of other bundles). */
export const RevenueChartLazy = dynamic<RevenueChartProps>(() => import("./revenue-chart"), {
  ssr: false,
  loading: () => <div className="h-56 animate-pulse rounded-lg bg-zinc-50" />,
});
