"use client";

import { useId, useState } from "react";
import { FieldHint, Input } from "@/components/ui/form";
import { Checkbox, FormField, FormFieldset } from "./field";
import type { ConfigFormProps } from "./form-props";
import { withParam } from "./raw-values";
import { WAIT_UNTIL_DST_HELP, WEEKDAYS_HELP } from "./wait-copy";
import { readWeekdays, timeZoneOptions, toggleWeekday, WEEKDAYS } from "./wait-until-options";

/**
 * `auto.control.wait_until`: a time of day, a time zone (typed, with the zones offered as you
 * type) and the weekdays it may resume on, none ticked meaning any day.
 */
export function WaitUntilConfig({ params, errors, disabled, onChange }: ConfigFormProps) {
  const id = useId();
  const [time, setTime] = useState(() => (typeof params.time === "string" ? params.time : ""));
  const [zone, setZone] = useState(() => (typeof params.timezone === "string" ? params.timezone : ""));
  const weekdays = readWeekdays(params.weekdays);
  const zonesId = `${id}-zones`;

  return (
    <div className="space-y-4">
      <div className="grid grid-cols-[minmax(0,2fr)_minmax(0,3fr)] gap-3">
        <FormField label="Time" param="time" error={errors.time}>
          {(a11y) => (
            <Input
              {...a11y}
              type="time"
              step={60}
              value={time}
              disabled={disabled}
              onChange={(event) => {
                setTime(event.target.value);
                onChange(withParam(params, "time", event.target.value));
              }}
            />
          )}
        </FormField>
        <FormField label="Time zone" param="timezone" error={errors.timezone}>
          {(a11y) => (
            <>
              <Input
                {...a11y}
                type="text"
                list={zonesId}
                autoComplete="off"
                spellCheck={false}
                placeholder="Europe/Paris"
                value={zone}
                disabled={disabled}
                onChange={(event) => {
                  setZone(event.target.value);
                  onChange(withParam(params, "timezone", event.target.value.trim()));
                }}
              />
              <datalist id={zonesId}>
                {timeZoneOptions().map((z) => (
                  <option key={z} value={z} />
                ))}
              </datalist>
            </>
          )}
        </FormField>
      </div>
      <FormFieldset legend="Weekdays" hint={WEEKDAYS_HELP} error={errors.weekdays} optional>
        {(invalid) => (
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
                checked={weekdays?.includes(day) ?? false}
                disabled={disabled}
                aria-invalid={invalid}
                onChange={(event) =>
                  onChange(withParam(params, "weekdays", toggleWeekday(weekdays, day, event.target.checked)))
                }
              />
            ))}
          </div>
        )}
      </FormFieldset>
      <FieldHint>{WAIT_UNTIL_DST_HELP}</FieldHint>
    </div>
  );
}
