"use client";

import { useState } from "react";
import { FieldHint, Input } from "@/components/ui/form";
import { DstConfig } from "../dst-config";
import { FormField, FormFieldset } from "../field";
import type { ConfigFormProps } from "../form-props";
import { withParam } from "../raw-values";
import { WAIT_UNTIL_DST_HELP, WEEKDAYS_HELP } from "./wait-copy";
import { readWeekdays, toggleWeekday } from "./wait-until-options";
import { WeekdayBoxes } from "../weekday-boxes";
import { ZonePicker } from "../zone-picker";

/**
 * `auto.control.wait_until`: a time of day, a time zone (picked by city or offset; a new step
 * starts on the shop's, never the browser's) and the weekdays it may resume on, none ticked
 * meaning any day.
 */
export function WaitUntilConfig({
  params,
  errors,
  shopTimeZone = "UTC",
  disabled,
  onChange,
}: ConfigFormProps) {
  const [time, setTime] = useState(() => (typeof params.time === "string" ? params.time : ""));
  const [zone, setZone] = useState(() => (typeof params.timezone === "string" ? params.timezone : ""));
  const weekdays = readWeekdays(params.weekdays);

  return (
    <div className="space-y-4">
      <div className="max-w-40">
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
      </div>
      <ZonePicker
        value={zone}
        shopTimeZone={shopTimeZone}
        error={errors.timezone}
        disabled={disabled}
        hint="The time above is read on this zone's clock."
        onChange={(next) => {
          setZone(next);
          onChange(withParam(params, "timezone", next));
        }}
      />
      <FormFieldset legend="Weekdays" hint={WEEKDAYS_HELP} error={errors.weekdays} optional>
        {(invalid) => (
          <WeekdayBoxes
            isChecked={(day) => weekdays?.includes(day) ?? false}
            disabled={disabled}
            invalid={invalid}
            onToggle={(day, on) => onChange(withParam(params, "weekdays", toggleWeekday(weekdays, day, on)))}
          />
        )}
      </FormFieldset>
      <DstConfig
        cron={
          /^\d\d:\d\d$/.test(time)
            ? `${Number(time.slice(3))} ${Number(time.slice(0, 2))} * * ${weekdays?.length ? weekdays.join(",") : "*"}`
            : ""
        }
        timezone={zone || shopTimeZone}
        value={params.dst}
        error={errors.dst}
        disabled={disabled}
        onDst={(next) => onChange(withParam(params, "dst", next))}
      />
      <FieldHint>{WAIT_UNTIL_DST_HELP}</FieldHint>
    </div>
  );
}
