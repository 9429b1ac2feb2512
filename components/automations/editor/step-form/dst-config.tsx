"use client";

import { useMemo } from "react";
import { nextScheduleDstDay } from "@/lib/time/cron";
import { dstRule, type DstGap, type DstInput, type DstRepeat } from "@/lib/time/dst";
import { FormFieldset } from "./field";
import { Radio } from "./radio";

const GAP_CHOICES: { value: DstGap; label: string }[] = [
  { value: "gap_end", label: "Run when the skipped hour ends" },
  { value: "shift", label: "Run as if the clocks had not changed (later by the jump)" },
  { value: "skip", label: "Skip that day" },
];
const REPEAT_CHOICES: { value: DstRepeat; label: string }[] = [
  { value: "once", label: "Run once, the first time" },
  { value: "twice", label: "Run both times" },
];

/** The `dst` param as the form holds it: an object of known values, or nothing. */
function readDst(value: unknown): DstInput {
  if (typeof value !== "object" || value === null) return {};
  const { gap, repeat } = value as Record<string, unknown>;
  return {
    ...(gap === "gap_end" || gap === "shift" || gap === "skip" ? { gap } : {}),
    ...(repeat === "once" || repeat === "twice" ? { repeat } : {}),
  };
}

/**
 * What a schedule or Wait until does on the days clocks change (`lib/time/dst.ts`), shown only
 * when one of its written-out times falls in the zone's skipped or repeated hour within the next
 * year, with the sentence for the next such day ("On 29 March 2026 02:30 does not exist in Paris:
 * the run moves to 03:00") under the rule chosen. Choosing the default leaves `dst` out.
 */
export function DstConfig({
  cron,
  timezone,
  value,
  error,
  disabled,
  onDst,
}: {
  /** The schedule's cron, or the Wait until's time as one (`30 2 * * *`). */
  cron: string;
  timezone: string;
  value: unknown;
  error?: string;
  disabled: boolean;
  onDst(next: DstInput | undefined): void;
}) {
  const dst = readDst(value);
  const rule = dstRule(dst);
  // Recomputed when the schedule or the rule changes; the day is a year ahead at most.
  const [gapDay, repeatDay] = useMemo(() => {
    const now = new Date();
    return [
      nextScheduleDstDay(cron, timezone, now, dst, 400, "gap"),
      nextScheduleDstDay(cron, timezone, now, dst, 400, "repeat"),
    ];
    // eslint-disable-next-line react-hooks/exhaustive-deps -- dst is read through its two values
  }, [cron, timezone, dst.gap, dst.repeat]);
  if (!gapDay && !repeatDay) return null;

  const choose = (next: DstInput) => {
    const merged = dstRule({ ...dst, ...next });
    onDst(merged.gap === "gap_end" && merged.repeat === "once" ? undefined : merged);
  };
  return (
    <FormFieldset legend="When clocks change" error={error}>
      {() => (
        <div className="space-y-3" data-testid="dst-config">
          {gapDay && (
            <div role="radiogroup" aria-label="When the time does not exist" className="space-y-1.5">
              <p className="text-sm text-zinc-700" data-testid="dst-gap-sentence">
                {gapDay.sentence}
              </p>
              {GAP_CHOICES.map((choice) => (
                <div key={choice.value}>
                  <Radio
                    name="dst-gap"
                    label={choice.label}
                    checked={rule.gap === choice.value}
                    disabled={disabled}
                    onSelect={() => choose({ gap: choice.value })}
                  />
                </div>
              ))}
            </div>
          )}
          {repeatDay && (
            <div role="radiogroup" aria-label="When the time happens twice" className="space-y-1.5">
              <p className="text-sm text-zinc-700" data-testid="dst-repeat-sentence">
                {repeatDay.sentence}
              </p>
              {REPEAT_CHOICES.map((choice) => (
                <div key={choice.value}>
                  <Radio
                    name="dst-repeat"
                    label={choice.label}
                    checked={rule.repeat === choice.value}
                    disabled={disabled}
                    onSelect={() => choose({ repeat: choice.value })}
                  />
                </div>
              ))}
            </div>
          )}
        </div>
      )}
    </FormFieldset>
  );
}
