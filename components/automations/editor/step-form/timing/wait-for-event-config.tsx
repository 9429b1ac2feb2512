"use client";

import { useId, useState } from "react";
import { Input, Label, Select } from "@/components/ui/form";
import { hasRecord } from "@/lib/automations/nodes/registry";
import { aDomain } from "@/lib/automations/nodes/triggers/triggers";
import { EventTypePicker } from "./event-type-picker";
import { FieldError, FormError, FormFieldset } from "../field";
import type { ConfigFormProps } from "../form-props";
import { Radio } from "../radio";
import { withParam } from "../raw-values";
import { TextField } from "../text-field";
import {
  matchFieldErrors,
  limitError,
  matchParam,
  offersSameRecord,
  readMatch,
  splitHours,
  toHours,
  type LimitUnit,
  type MatchKind,
} from "./wait-for-event-options";

/**
 * `auto.control.wait_for_event {event, match, timeoutHours}` as a merchant sets it: the event (by
 * name, searchable), which one is this run's — about the same record, or one whose field equals a
 * value (with tokens) — and how long to wait, in hours or days.
 */
export function WaitForEventConfig({
  params,
  errors,
  triggerDomain,
  tokens,
  templating,
  disabled,
  onChange,
}: ConfigFormProps) {
  const id = useId();
  const event = typeof params.event === "string" ? params.event : "";
  const [match, setMatch] = useState(() => readMatch(params.match));
  const [limit, setLimit] = useState(() => splitHours(params.timeoutHours));
  const fieldErrors = match.kind === "field" ? matchFieldErrors(params.match) : {};
  const limitProblem = limitError(errors.timeoutHours);

  function changeMatch(kind: MatchKind, path: string, equals: string) {
    setMatch({ kind, path, equals });
    onChange(withParam(params, "match", matchParam(kind, path, equals)));
  }

  function changeLimit(amount: string, unit: LimitUnit) {
    setLimit({ amount, unit });
    onChange(withParam(params, "timeoutHours", toHours(amount, unit)));
  }

  const matchHint =
    match.kind === "same_record"
      ? triggerDomain !== null && hasRecord(triggerDomain)
        ? `The event must be about the run's own record (${aDomain(triggerDomain)}).`
        : "The event must be about the run's own record."
      : "The event's field must equal the value, such as the customer's email in a reply's webhook.";
  // A problem with the field or its value shows under that input; any other under the choice.
  const matchError = fieldErrors.path || fieldErrors.equals ? undefined : errors.match;
  return (
    <div className="space-y-5">
      <FormError>{errors[""]}</FormError>
      <EventTypePicker
        value={event}
        error={event ? errors.event : errors.event && "Choose the event to wait for."}
        disabled={disabled}
        onChange={(next) => onChange(withParam(params, "event", next))}
      />
      <FormFieldset legend="Which event is this run's?" hint={matchHint} error={matchError}>
        {() => (
          <div className="space-y-2">
            {offersSameRecord(triggerDomain, match.kind) && (
              <Radio
                name={`${id}-match`}
                label="About the same record"
                checked={match.kind === "same_record"}
                disabled={disabled}
                onSelect={() => changeMatch("same_record", match.path, match.equals)}
              />
            )}
            <Radio
              name={`${id}-match`}
              label="A field of the event equals a value"
              checked={match.kind === "field"}
              disabled={disabled}
              onSelect={() => changeMatch("field", match.path, match.equals)}
            />
          </div>
        )}
      </FormFieldset>
      {match.kind === "field" && (
        <div className="space-y-4 border-l-2 border-zinc-200 pl-3">
          <TextField
            label="Field of the event"
            param="match.path"
            value={match.path}
            placeholder="payload.body.email"
            hint="Where the value sits in the event, such as payload.body.email for the email in a webhook's body."
            error={fieldErrors.path}
            disabled={disabled}
            mono
            onChange={(path) => changeMatch("field", path, match.equals)}
          />
          <TextField
            label="Equals"
            param="match.equals"
            value={match.equals}
            placeholder="{entity.email}"
            hint="Filled in when the run starts waiting; compared without regard to case."
            error={fieldErrors.equals}
            disabled={disabled}
            tokens={tokens}
            templating={templating}
            onChange={(equals) => changeMatch("field", match.path, equals)}
          />
        </div>
      )}
      <div>
        <div className="grid grid-cols-[minmax(0,1fr)_minmax(0,1fr)] gap-3">
          <div>
            <Label htmlFor={`${id}-limit`} className="mb-1.5">
              Time limit
            </Label>
            <Input
              id={`${id}-limit`}
              type="number"
              inputMode="numeric"
              min={1}
              step={1}
              value={limit.amount}
              disabled={disabled}
              aria-invalid={limitProblem ? true : undefined}
              aria-describedby={limitProblem ? `${id}-limit-error` : undefined}
              onChange={(e) => changeLimit(e.target.value, limit.unit)}
            />
          </div>
          <div>
            <Label htmlFor={`${id}-unit`} className="mb-1.5">
              Unit
            </Label>
            <Select
              id={`${id}-unit`}
              value={limit.unit}
              disabled={disabled}
              onChange={(e) => changeLimit(limit.amount, e.target.value === "hours" ? "hours" : "days")}
            >
              <option value="hours">Hours</option>
              <option value="days">Days</option>
            </Select>
          </div>
        </div>
        <FieldError id={`${id}-limit-error`}>{limitProblem}</FieldError>
        <p className="mt-1.5 text-xs text-zinc-600">
          At most 30 days. If the event has not come by then, the run follows &lsquo;Timed out&rsquo;.
        </p>
      </div>
    </div>
  );
}
