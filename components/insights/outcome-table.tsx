import { OUTCOMES, totalOf, type DayCounts } from "@/lib/automations/insights/outcomes";
import { OUTCOME_STYLE, dayLabel } from "./outcomes";

/** The chart's numbers as a table: its text alternative, visually hidden unless `visible`. */
export function OutcomeTable({
  perDay,
  caption,
  visible = false,
}: {
  perDay: DayCounts[];
  caption: string;
  visible?: boolean;
}) {
  const table = (
    <table className={visible ? "w-full text-left text-xs" : undefined} data-testid="outcome-table">
      <caption className={visible ? "mb-2 text-left text-sm font-medium" : undefined}>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Day</th>
          {OUTCOMES.map((o) => (
            <th key={o} scope="col">
              {OUTCOME_STYLE[o].label}
            </th>
          ))}
          <th scope="col">Total</th>
        </tr>
      </thead>
      <tbody>
        {perDay.map((d) => (
          <tr key={d.day}>
            <th scope="row">{dayLabel(d.day)}</th>
            {OUTCOMES.map((o) => (
              <td key={o}>{d.counts[o]}</td>
            ))}
            <td>{totalOf(d.counts)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
  // Hidden in a block, not on the table itself: a table is as wide as its columns whatever its
  // width says, so an sr-only table still widened a phone's page by hundreds of pixels.
  return visible ? table : <div className="sr-only">{table}</div>;
}
