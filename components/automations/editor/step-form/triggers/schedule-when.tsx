"use client";

import { useId, useState } from "react";
import { FieldHint, Input, Select } from "@/components/ui/form";
import {
  choiceToCron,
  cronToChoice,
  describeChoice,
  describeCron,
  fallbackChoice,
  formatClock,
  HOUR_STEPS,
  parseClock,
  SCHEDULE_KINDS,
  switchKind,
  type HourStep,
  type IsoWeekday,
  type ScheduleChoice,
  type ScheduleKind,
} from "@/lib/time/schedule-sentence";
import { FieldError, FormField, FormFieldset } from "../field";
import { Radio } from "../radio";
import { WeekdayBoxes } from "../weekday-boxes";

export interface ScheduleWhenProps {
  /** The trigger's `cron` param. */
  cron: string;
  /** The schema's message for `cron`, if any. */
  error: string | undefined;
  /** The zone's city, for the sentence ("… at 09:00, Paris time"). */
  place: string;
  disabled: boolean;
  onCron(cron: string): void;
}

type Mode = "sentence" | "cron";

/**
 * When a schedule fires, as a sentence: Every day / Weekdays / chosen days / Every few hours /
 * Once a month, at a time. "Advanced (cron)" shows the expression itself, with what it means in
 * words; a cron that is not one of the sentences opens there.
 */
export function ScheduleWhen({ cron, error, place, disabled, onCron }: ScheduleWhenProps) {
  const id = useId();
  const [mode, setMode] = useState<Mode>(() => (cronToChoice(cron) ? "sentence" : "cron"));
  const [choice, setChoice] = useState<ScheduleChoice>(() => cronToChoice(cron) ?? fallbackChoice(cron));
  const [timeText, setTimeText] = useState(() => ("hour" in choice ? formatClock(choice) : "09:00"));
  const [cronText, setCronText] = useState(cron);
  const [daysError, setDaysError] = useState<string | undefined>();

  function pick(next: ScheduleChoice) {
    setChoice(next);
    const expression = choiceToCron(next);
    setCronText(expression);
    onCron(expression);
  }

  function changeMode(next: Mode) {
    setMode(next);
    if (next === "sentence") {
      const read = cronToChoice(cronText);
      const start = read ?? fallbackChoice(cronText);
      if ("hour" in start) setTimeText(formatClock(start));
      if (read) setChoice(read);
      else pick(start);
    }
  }

  const timeValid = parseClock(timeText) !== null;
  return (
    <div className="space-y-4">
      <fieldset>
        <legend className="mb-1.5 text-sm font-medium text-zinc-800">Set the times</legend>
        <div className="flex flex-wrap gap-x-4 gap-y-2">
          {(
            [
              ["sentence", "As a sentence"],
              ["cron", "Advanced (cron)"],
            ] as const
          ).map(([value, label]) => (
            <Radio
              key={value}
              name={`${id}-mode`}
              label={label}
              checked={mode === value}
              disabled={disabled}
              onSelect={() => changeMode(value)}
            />
          ))}
        </div>
      </fieldset>

      {mode === "sentence" ? (
        <div className="space-y-4">
          <div className="grid grid-cols-[minmax(0,1fr)_8rem] gap-3">
            <FormField label="Runs">
              {(a11y) => (
                <Select
                  {...a11y}
                  value={choice.kind}
                  disabled={disabled}
                  onChange={(event) => {
                    const next = switchKind(choice, event.target.value as ScheduleKind);
                    setDaysError(undefined);
                    pick(next);
                  }}
                >
                  {SCHEDULE_KINDS.map(({ kind, label }) => (
                    <option key={kind} value={kind}>
                      {label}
                    </option>
                  ))}
                </Select>
              )}
            </FormField>
            {choice.kind !== "hours" && (
              <FormField label="At" error={timeValid ? undefined : "Enter a time such as 09:00."}>
                {(a11y) => (
                  <Input
                    {...a11y}
                    type="time"
                    step={60}
                    value={timeText}
                    disabled={disabled}
                    onChange={(event) => {
                      setTimeText(event.target.value);
                      const clock = parseClock(event.target.value);
                      if (clock) pick({ ...choice, ...clock });
                    }}
                  />
                )}
              </FormField>
            )}
          </div>

          {choice.kind === "days" && (
            <FormFieldset legend="On" error={daysError}>
              {(invalid) => (
                <WeekdayBoxes
                  isChecked={(day) => choice.days.includes(day as IsoWeekday)}
                  disabled={disabled}
                  invalid={invalid}
                  onToggle={(day, on) => {
                    const days = on
                      ? [...choice.days, day as IsoWeekday]
                      : choice.days.filter((d) => d !== day);
                    if (days.length === 0) {
                      setDaysError("Tick at least one day.");
                      return;
                    }
                    setDaysError(undefined);
                    pick({ ...choice, days });
                  }}
                />
              )}
            </FormFieldset>
          )}

          {choice.kind === "hours" && (
            <div className="grid grid-cols-2 gap-3">
              <FormField label="Every">
                {(a11y) => (
                  <Select
                    {...a11y}
                    value={String(choice.every)}
                    disabled={disabled}
                    onChange={(event) => pick({ ...choice, every: Number(event.target.value) as HourStep })}
                  >
                    {HOUR_STEPS.map((step) => (
                      <option key={step} value={step}>
                        {step === 1 ? "1 hour" : `${step} hours`}
                      </option>
                    ))}
                  </Select>
                )}
              </FormField>
              <FormField label="Minutes past the hour">
                {(a11y) => (
                  <Select
                    {...a11y}
                    value={String(choice.minute)}
                    disabled={disabled}
                    onChange={(event) => pick({ ...choice, minute: Number(event.target.value) })}
                  >
                    {Array.from({ length: 12 }, (_, i) => i * 5)
                      .concat(choice.minute % 5 === 0 ? [] : [choice.minute])
                      .sort((a, b) => a - b)
                      .map((minute) => (
                        <option key={minute} value={minute}>
                          {minute === 0 ? "On the hour" : `${minute} minutes past`}
                        </option>
                      ))}
                  </Select>
                )}
              </FormField>
            </div>
          )}

          {choice.kind === "monthly" && (
            <FormField
              label="Day of the month"
              hint="In months without this day (the 31st in April) it does not run."
            >
              {(a11y) => (
                <Select
                  {...a11y}
                  value={String(choice.day)}
                  disabled={disabled}
                  onChange={(event) => pick({ ...choice, day: Number(event.target.value) })}
                >
                  {Array.from({ length: 31 }, (_, i) => i + 1).map((day) => (
                    <option key={day} value={day}>
                      {day}
                    </option>
                  ))}
                </Select>
              )}
            </FormField>
          )}

          <p
            className="rounded-md bg-zinc-50 px-3 py-2 text-sm text-zinc-900"
            data-testid="schedule-sentence"
          >
            {describeChoice(choice)}, {place} time.
          </p>
          <FieldError id={`${id}-cron-error`}>{error}</FieldError>
        </div>
      ) : (
        <div className="space-y-2">
          <FormField
            label="Cron expression"
            param="cron"
            error={error}
            hint="Five fields: minute, hour, day of the month, month, day of the week (0 or 7 is Sunday). For example 0 9 * * 1-5 is 09:00 on weekdays."
          >
            {(a11y) => (
              <Input
                {...a11y}
                className="font-mono"
                autoComplete="off"
                spellCheck={false}
                value={cronText}
                disabled={disabled}
                onChange={(event) => {
                  setCronText(event.target.value);
                  onCron(event.target.value);
                }}
              />
            )}
          </FormField>
          {!error && (
            <p className="rounded-md bg-zinc-50 px-3 py-2 text-sm text-zinc-900" data-testid="cron-words">
              {describeCron(cronText)}, {place} time.
            </p>
          )}
          {!error && !cronToChoice(cronText) && (
            <FieldHint>
              This schedule is not one of the sentences; choosing &ldquo;As a sentence&rdquo; starts it over
              as every day at a time.
            </FieldHint>
          )}
        </div>
      )}
    </div>
  );
}
