"use client";

import { useId } from "react";
import { FieldHint, Input, Label } from "@/components/ui/form";
import {
  IN_FLIGHT_POLICIES,
  POLICY_CHOICES,
  type InFlightPolicy,
} from "@/lib/automations/lifecycle/policies";

/** The automation's own settings: its name and what waiting runs do after a new version. */
export function SettingsPanel({
  name,
  policy,
  readOnly,
  onNameChange,
  onPolicyChange,
}: {
  name: string;
  policy: InFlightPolicy;
  readOnly: boolean;
  onNameChange(name: string): void;
  onPolicyChange(policy: InFlightPolicy): void;
}) {
  const id = useId();
  const nameError = name.trim() ? null : "Give the automation a name.";
  return (
    <div className="space-y-5">
      <div>
        <Label htmlFor={`${id}-name`}>Name</Label>
        <Input
          id={`${id}-name`}
          className="mt-1.5"
          value={name}
          maxLength={120}
          readOnly={readOnly}
          aria-invalid={nameError ? true : undefined}
          aria-describedby={nameError ? `${id}-name-error` : undefined}
          onChange={(e) => onNameChange(e.target.value)}
        />
        {nameError && (
          <p id={`${id}-name-error`} className="mt-1 text-xs text-red-700">
            {nameError}
          </p>
        )}
      </div>
      <fieldset>
        <legend className="text-sm font-medium text-zinc-800">When you publish while runs are waiting</legend>
        <FieldHint className="mt-0">
          Runs parked on a wait wake up later. Choose what they do if the flow changed meanwhile.
        </FieldHint>
        <div className="mt-2 space-y-2">
          {IN_FLIGHT_POLICIES.map((value) => (
            <label
              key={value}
              className="flex cursor-pointer gap-3 rounded-lg border border-zinc-200 p-3 text-sm has-checked:border-indigo-500 has-checked:bg-indigo-50/50"
            >
              <input
                type="radio"
                name={`${id}-policy`}
                value={value}
                checked={policy === value}
                disabled={readOnly}
                onChange={() => onPolicyChange(value)}
                className="mt-0.5"
              />
              <span>
                <span className="block font-medium text-zinc-900">{POLICY_CHOICES[value].label}</span>
                <span className="block text-zinc-600">{POLICY_CHOICES[value].explanation}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
    </div>
  );
}
