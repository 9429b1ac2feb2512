"use client";

import { useId, useMemo, useState } from "react";
import { FieldHint, Input, Label, Select } from "@/components/ui/form";
import { coerceField, paramFields } from "@/lib/automations/editor/param-form";
import { WAIT_UNITS } from "@/lib/automations/nodes/timing/wait";
import { FieldError } from "../field";
import type { ConfigFormProps } from "../form-props";
import { withParam } from "../raw-values";
import { waitHelp } from "./wait-copy";

const UNIT_LABELS: Record<(typeof WAIT_UNITS)[number], string> = {
  minutes: "Minutes",
  hours: "Hours",
  days: "Days",
};

/**
 * `auto.control.wait`: how long, as a number and a unit side by side, and what happens when the
 * wait ends. The 30-day limit (a check beyond the schema, under `""`) shows under the duration.
 */
export function WaitConfig({
  definition,
  params,
  errors,
  triggerDomain,
  disabled,
  onChange,
}: ConfigFormProps) {
  const id = useId();
  const durationField = useMemo(
    () => paramFields(definition).find((f) => f.name === "duration"),
    [definition],
  );
  const [duration, setDuration] = useState(() =>
    typeof params.duration === "number" || typeof params.duration === "string" ? String(params.duration) : "",
  );
  const unit = typeof params.unit === "string" ? params.unit : "";
  const durationError = errors.duration ?? errors[""];
  const unitError = errors.unit;
  const helpId = `${id}-help`;

  function changeDuration(text: string) {
    setDuration(text);
    const value = durationField ? coerceField(durationField, text) : Number(text);
    onChange(withParam(params, "duration", value));
  }

  return (
    <div className="space-y-3">
      <div className="grid grid-cols-[minmax(0,1fr)_minmax(0,1fr)] gap-3">
        <div>
          <Label htmlFor={`${id}-duration`} className="mb-1.5">
            Duration
          </Label>
          <Input
            id={`${id}-duration`}
            type="number"
            inputMode="numeric"
            min={1}
            step={1}
            value={duration}
            disabled={disabled}
            aria-invalid={durationError ? true : undefined}
            aria-describedby={[durationError && `${id}-duration-error`, helpId].filter(Boolean).join(" ")}
            onChange={(event) => changeDuration(event.target.value)}
          />
        </div>
        <div>
          <Label htmlFor={`${id}-unit`} className="mb-1.5">
            Unit
          </Label>
          <Select
            id={`${id}-unit`}
            value={unit}
            disabled={disabled}
            aria-invalid={unitError ? true : undefined}
            aria-describedby={unitError ? `${id}-unit-error` : undefined}
            onChange={(event) => onChange(withParam(params, "unit", event.target.value))}
          >
            {!WAIT_UNITS.some((u) => u === unit) && (
              <option value={unit} disabled>
                {unit || "Choose…"}
              </option>
            )}
            {WAIT_UNITS.map((u) => (
              <option key={u} value={u}>
                {UNIT_LABELS[u]}
              </option>
            ))}
          </Select>
        </div>
      </div>
      <FieldError id={`${id}-duration-error`}>{durationError}</FieldError>
      <FieldError id={`${id}-unit-error`}>{unitError}</FieldError>
      <FieldHint id={helpId}>{waitHelp(triggerDomain)}</FieldHint>
    </div>
  );
}
