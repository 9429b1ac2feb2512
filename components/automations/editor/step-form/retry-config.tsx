"use client";

import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { FieldHint, Input, Select } from "@/components/ui/form";
import { Checkbox, FormError, FormField } from "./field";
import { withParam } from "./raw-values";
import {
  BACKOFF_OPTIONS,
  RETRY_FIELD_LABELS,
  RETRY_PARAM,
  retryErrors,
  retryInputs,
  retrySentence,
  retryValue,
  type RetryInputs,
} from "./retry-form";

export interface RetryConfigProps {
  /** The step's params as they are now; the section edits their `retry`. */
  params: Record<string, unknown>;
  /** `paramErrors`' message for `retry` as a whole (a stored value of the wrong shape). */
  error: string | undefined;
  disabled: boolean;
  /** The complete new params after an edit. */
  onChange(params: Record<string, unknown>): void;
}

/**
 * "On failure": whether and how an action is tried again when it fails for a reason that may
 * pass, with the schedule said in a sentence as you type. Keyed with the form it sits under, so
 * it starts over when the params change elsewhere.
 */
export function RetryConfig({ params, error, disabled, onChange }: RetryConfigProps) {
  const id = useId();
  const [inputs, setInputs] = useState(() => retryInputs(params[RETRY_PARAM]));
  const errors = retryErrors(inputs);
  const stored = params[RETRY_PARAM];
  const sentence = Object.keys(errors).length > 0 ? null : retrySentence(stored);
  const sentenceId = `${id}-sentence`;

  function update(change: Partial<RetryInputs>) {
    const next = { ...inputs, ...change };
    setInputs(next);
    onChange(withParam(params, RETRY_PARAM, retryValue(next)));
  }

  function resetToDefault() {
    setInputs(retryInputs(undefined));
    onChange(withParam(params, RETRY_PARAM, undefined));
  }

  return (
    <fieldset className="min-w-0 space-y-4 border-t border-zinc-200 pt-4" data-param={RETRY_PARAM}>
      <legend className="float-left mb-3 w-full text-sm font-semibold text-zinc-900">On failure</legend>
      <div className="clear-left">
        <Checkbox
          role="switch"
          label="Retry"
          checked={inputs.on}
          disabled={disabled}
          aria-describedby={`${id}-switch-hint`}
          onChange={(event) => update({ on: event.target.checked })}
        />
        <FieldHint id={`${id}-switch-hint`}>
          Only a failure that may pass is tried again: no answer, a timeout (408), too many requests (429) or
          a server error (5xx). Every attempt carries the same Idempotency-Key.
        </FieldHint>
      </div>
      {inputs.on && (
        // One column: the panel is narrow, and "Same each time" must show whole.
        <div className="space-y-4">
          <FormField
            label={RETRY_FIELD_LABELS.attempts}
            param="retry.attempts"
            hint="Counting the first."
            error={errors.attempts}
          >
            {(a11y) => (
              <Input
                {...a11y}
                type="number"
                inputMode="numeric"
                min={2}
                max={10}
                step={1}
                value={inputs.attempts}
                disabled={disabled}
                onChange={(event) => update({ attempts: event.target.value })}
              />
            )}
          </FormField>
          <FormField label={RETRY_FIELD_LABELS.backoff} param="retry.backoff" error={errors.backoff}>
            {(a11y) => (
              <Select
                {...a11y}
                value={inputs.backoff}
                disabled={disabled}
                onChange={(event) => update({ backoff: event.target.value })}
              >
                {/* A stored value the schema does not know is shown, so it is not silently replaced. */}
                {!BACKOFF_OPTIONS.some((option) => option.value === inputs.backoff) && (
                  <option value={inputs.backoff} disabled>
                    {inputs.backoff || "Choose…"}
                  </option>
                )}
                {BACKOFF_OPTIONS.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </Select>
            )}
          </FormField>
          <FormField
            label={RETRY_FIELD_LABELS.initialSeconds}
            param="retry.initialSeconds"
            hint="1 to 3,600. No wait is longer than an hour."
            error={errors.initialSeconds}
          >
            {(a11y) => (
              <Input
                {...a11y}
                type="number"
                inputMode="numeric"
                min={1}
                max={3600}
                step={1}
                value={inputs.initialSeconds}
                disabled={disabled}
                onChange={(event) => update({ initialSeconds: event.target.value })}
              />
            )}
          </FormField>
        </div>
      )}
      {Object.keys(errors).length === 0 && <FormError>{error}</FormError>}
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        {/* Polite: read out once typing pauses, so the schedule is heard as well as seen. */}
        <p id={sentenceId} className="text-sm text-zinc-700" aria-live="polite" data-testid="retry-sentence">
          {sentence && (
            <>
              {sentence.text}
              {sentence.isDefault && <span className="text-zinc-500"> This is the default.</span>}
            </>
          )}
        </p>
        {stored !== undefined && !disabled && (
          <Button type="button" variant="ghost" size="sm" onClick={resetToDefault}>
            Use the default
          </Button>
        )}
      </div>
    </fieldset>
  );
}
