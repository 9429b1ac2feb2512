import Link from "next/link";
import { formatCount } from "@/components/ui/format";
import { OUTCOMES, type OutcomeCounts, type Outcome } from "@/lib/automations/insights/outcomes";
import { OutcomeSwatch } from "./outcome-patterns";
import { OUTCOME_STYLE } from "./outcomes";

/** A row of outcome counts, each a link to the runs it counts (`href` of the outcome). */
export function OutcomeCountLinks({
  counts,
  href,
  label,
}: {
  counts: OutcomeCounts;
  href: (outcome: Outcome) => string;
  /** What the row counts, for screen readers ("today"). */
  label: string;
}) {
  return (
    <ul className="flex flex-wrap gap-2" aria-label={`Runs ${label} by outcome`}>
      {OUTCOMES.map((o) => (
        <li key={o}>
          <Link
            href={href(o)}
            className="inline-flex items-center gap-2 rounded-lg border border-zinc-200 px-3 py-1.5 text-sm hover:border-zinc-400 hover:bg-zinc-50"
            data-testid={`count-${label.replace(/\s+/g, "-")}-${o}`}
          >
            <OutcomeSwatch outcome={o} />
            <span className="text-zinc-600">{OUTCOME_STYLE[o].label}</span>
            <span className="font-semibold text-zinc-900 tabular-nums">{formatCount(counts[o])}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
