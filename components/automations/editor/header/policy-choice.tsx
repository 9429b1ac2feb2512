"use client";

import { useId } from "react";
import {
  IN_FLIGHT_POLICIES,
  POLICY_CHOICES,
  type InFlightPolicy,
} from "@/lib/automations/lifecycle/policies";

export interface PolicyChoiceProps {
  value: InFlightPolicy;
  onChange(policy: InFlightPolicy): void;
  /** The question the radios answer. */
  legend: string;
  /** Words after a choice's name, saying where it comes from ("the current policy"). */
  notes?: Partial<Record<InFlightPolicy, string>>;
  disabled?: boolean;
}

/**
 * What runs waiting now do when they wake after the change (SPEC §2 "On wake"), as radios with
 * each choice explained: in the publish dialog and in a revert's dialog.
 */
export function PolicyChoice({ value, onChange, legend, notes = {}, disabled = false }: PolicyChoiceProps) {
  const name = useId();
  return (
    <fieldset className="mt-3" disabled={disabled} data-testid="policy-choice">
      <legend className="text-sm font-medium text-zinc-800">{legend}</legend>
      <div className="mt-1.5 space-y-1.5">
        {IN_FLIGHT_POLICIES.map((policy) => (
          <label key={policy} className="flex cursor-pointer gap-2 text-sm text-zinc-700">
            <input
              type="radio"
              name={name}
              value={policy}
              checked={value === policy}
              onChange={() => onChange(policy)}
              className="mt-0.5"
            />
            <span>
              <span className="font-medium text-zinc-900">{POLICY_CHOICES[policy].label}</span>
              {notes[policy] && <span className="text-zinc-600"> ({notes[policy]})</span>}
              <span className="block text-xs text-zinc-600">{POLICY_CHOICES[policy].explanation}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** Said wherever a publish or revert is confirmed while runs wait (SPEC §2: a wait's time is fixed when it starts). */
export const WAITS_KEEP_THEIR_TIME =
  "Runs already waiting keep the wait time they were given: editing a Wait step does not move them.";
