import { Checkbox } from "./field";
import { WEEKDAYS } from "./timing/wait-until-options";

/**
 * One checkbox per ISO weekday, Monday first, showing "Mon" and read out as "Monday": the schedule's
 * chosen days and Wait until's weekdays.
 */
export function WeekdayBoxes({
  isChecked,
  onToggle,
  disabled,
  invalid,
}: {
  isChecked: (day: number) => boolean;
  onToggle: (day: number, on: boolean) => void;
  disabled?: boolean;
  invalid?: boolean;
}) {
  return (
    <div className="flex flex-wrap gap-x-3 gap-y-2">
      {WEEKDAYS.map(({ day, short, long }) => (
        <Checkbox
          key={day}
          label={
            <>
              <span aria-hidden="true">{short}</span>
              <span className="sr-only">{long}</span>
            </>
          }
          checked={isChecked(day)}
          disabled={disabled}
          aria-invalid={invalid}
          onChange={(event) => onToggle(day, event.target.checked)}
        />
      ))}
    </div>
  );
}
