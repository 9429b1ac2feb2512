import Link from "next/link";
import type { ReactNode } from "react";

/**
 * The bar above an automation's Insights and Performance tabs: what the page covers, and links to
 * the periods it offers ("Last 7 days", "Last 30 days" …). The default period's link is `base`
 * itself; the others add `?days=n`.
 */
export function PeriodBar({
  base,
  periods,
  days,
  defaultDays,
  children,
}: {
  base: string;
  periods: readonly number[];
  days: number;
  defaultDays: number;
  /** The sentence on the left: the period's days and time zone. */
  children: ReactNode;
}) {
  return (
    <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
      <p className="text-sm text-zinc-600">{children}</p>
      <nav aria-label="Period" className="flex rounded-lg border border-zinc-200 p-0.5 text-sm">
        {periods.map((n) => (
          <Link
            key={n}
            href={n === defaultDays ? base : `${base}?days=${n}`}
            aria-current={n === days ? "page" : undefined}
            className={
              n === days
                ? "rounded-md bg-zinc-900 px-3 py-1 font-medium text-white"
                : "rounded-md px-3 py-1 text-zinc-700 hover:bg-zinc-100"
            }
          >
            Last {n} days
          </Link>
        ))}
      </nav>
    </div>
  );
}
