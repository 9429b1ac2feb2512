"use client";

import { useId, type ReactNode } from "react";

/** A radio button with its label to the right, tied by id (as `Checkbox` is by wrapping). */
export function Radio({
  name,
  label,
  checked,
  disabled,
  onSelect,
}: {
  name: string;
  label: ReactNode;
  checked: boolean;
  disabled: boolean;
  onSelect(): void;
}) {
  const id = useId();
  return (
    <div className="inline-flex items-center gap-2">
      <input
        id={id}
        type="radio"
        name={name}
        checked={checked}
        disabled={disabled}
        onChange={onSelect}
        className="size-4 border-zinc-300 text-indigo-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:cursor-not-allowed"
      />
      <label htmlFor={id} className="text-sm text-zinc-800">
        {label}
      </label>
    </div>
  );
}
