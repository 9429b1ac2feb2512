"use client";

import { createContext, useContext, useState, type ReactNode } from "react";
import { formatCount } from "@/components/ui/format";
import type { CanvasPerformance } from "@/lib/automations/performance/overlay";
import { formatMoney } from "@/lib/money/format";

/*
 * The canvas's "Show performance" (issue 50), like Klaviyo's "Show analytics": a toggle in the
 * editor's toolbar and a badge under each step — runs entered and, for a step that messages
 * customers, its conversions and revenue over the last 30 days. The editor reads it through this
 * context only (its hook points are commented "performance overlay"); without a provider (a
 * read-only canvas elsewhere) neither the toggle nor the badges show.
 */

interface Overlay {
  data: CanvasPerformance | null;
  shown: boolean;
  setShown: (shown: boolean) => void;
}

const OverlayContext = createContext<Overlay>({ data: null, shown: false, setShown: () => {} });

export function PerformanceOverlayProvider({
  data,
  children,
}: {
  data: CanvasPerformance;
  children: ReactNode;
}) {
  const [shown, setShown] = useState(false);
  return <OverlayContext.Provider value={{ data, shown, setShown }}>{children}</OverlayContext.Provider>;
}

/** The toolbar's toggle: "Show performance" / "Hide performance". */
export function ShowPerformanceToggle() {
  const { data, shown, setShown } = useContext(OverlayContext);
  if (!data) return null;
  return (
    <button
      type="button"
      aria-pressed={shown}
      onClick={() => setShown(!shown)}
      className={
        shown
          ? "rounded-md border border-indigo-600 bg-indigo-50 px-2.5 py-1 text-sm font-medium whitespace-nowrap text-indigo-800 focus-visible:outline-2 focus-visible:outline-indigo-600"
          : "rounded-md border border-zinc-300 bg-white px-2.5 py-1 text-sm font-medium whitespace-nowrap text-zinc-700 hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-indigo-600"
      }
    >
      {shown ? "Hide performance" : "Show performance"}
    </button>
  );
}

/** Under a step while the overlay is on: "120 entered · 8 orders · €540.00". */
export function StepPerformanceBadge({ nodeId }: { nodeId: string }) {
  const { data, shown } = useContext(OverlayContext);
  if (!data || !shown) return null;
  const s = data.steps[nodeId];
  const entered = s?.entered ?? 0;
  const touches = s !== undefined && (s.reached > 0 || s.conversions > 0);
  return (
    <p
      data-testid="step-performance"
      className="border-t border-indigo-100 bg-indigo-50 px-3 py-1.5 text-xs text-indigo-900 tabular-nums"
    >
      <span className="sr-only">Last {data.days} days: </span>
      {formatCount(entered)} entered
      {touches && (
        <>
          {" · "}
          {formatCount(s.conversions)} {s.conversions === 1 ? "order" : "orders"}
          {" · "}
          <span className="font-semibold">{formatMoney(Number(s.revenue), data.currency)}</span>
        </>
      )}
    </p>
  );
}
