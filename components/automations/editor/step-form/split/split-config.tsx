"use client";

import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { FieldHint, Input, Label } from "@/components/ui/form";
import {
  branchShares,
  formatShare,
  groupLabel,
  MAX_BRANCHES,
  MIN_BRANCHES,
  nextBranchId,
} from "@/lib/automations/nodes/split/split-branches";
import { FieldError } from "../field";
import type { ConfigFormProps } from "../form-props";
import { Radio } from "../radio";
import { withParam } from "../raw-values";

interface BranchDraft {
  id: string;
  label: string;
  weight: number;
}

/** The branches as stored, read leniently: a half-typed row still shows. */
function branchesOf(params: Record<string, unknown>): BranchDraft[] {
  const list = Array.isArray(params.branches) ? params.branches : [];
  return list.map((raw, index) => {
    const branch = typeof raw === "object" && raw !== null ? (raw as Record<string, unknown>) : {};
    return {
      id: typeof branch.id === "string" ? branch.id : `branch-${index + 1}`,
      label: typeof branch.label === "string" ? branch.label : "",
      weight: typeof branch.weight === "number" ? branch.weight : Number.NaN,
    };
  });
}

/**
 * `auto.control.split`: its branches (2 to 5), each with a name and a weight, and the share of
 * customers each weight gives; whom it divides (each customer once, or each record). The ready
 * issues about the branches (a weight of 0, too few, too many) show under the list.
 */
export function SplitConfig({ params, errors, disabled, onChange }: ConfigFormProps) {
  const id = useId();
  const branches = branchesOf(params);
  // What is typed in each weight box, so "" or "1." can be typed on the way to a number.
  const [typed, setTyped] = useState<Record<string, string>>({});
  const shares = branchShares(branches.map((b) => ({ weight: Number.isFinite(b.weight) ? b.weight : 0 })));
  const by = params.by === "record" ? "record" : "customer";
  const listError = errors[""] ?? errors.branches;

  function save(next: BranchDraft[]) {
    onChange(withParam(params, "branches", next));
  }
  function edit(index: number, change: Partial<BranchDraft>) {
    save(branches.map((b, i) => (i === index ? { ...b, ...change } : b)));
  }
  function add() {
    const taken = branches.map((b) => b.id);
    const usedLabels = new Set(branches.map((b) => b.label));
    let n = branches.length;
    while (usedLabels.has(groupLabel(n)) && n < 25) n += 1;
    save([...branches, { id: nextBranchId(taken), label: groupLabel(n), weight: 50 }]);
  }

  return (
    <div className="space-y-4">
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-zinc-900">Who is split</legend>
        <div className="flex flex-wrap gap-x-6 gap-y-2">
          <Radio
            name={`${id}-by`}
            label="Each customer (always the same branch)"
            checked={by === "customer"}
            disabled={disabled}
            onSelect={() => onChange(withParam(params, "by", "customer"))}
          />
          <Radio
            name={`${id}-by`}
            label="Each record"
            checked={by === "record"}
            disabled={disabled}
            onSelect={() => onChange(withParam(params, "by", "record"))}
          />
        </div>
      </fieldset>

      <fieldset className="space-y-2" aria-describedby={listError ? `${id}-error` : `${id}-help`}>
        <legend className="text-sm font-medium text-zinc-900">Branches</legend>
        <ul className="space-y-2" data-testid="split-branches">
          {branches.map((branch, index) => {
            const rowId = `${id}-${index}`;
            const weightText =
              typed[branch.id] ?? (Number.isFinite(branch.weight) ? String(branch.weight) : "");
            return (
              <li
                key={`${branch.id}-${index}`}
                className="grid grid-cols-[minmax(0,1fr)_5rem_3.5rem_auto] items-end gap-2"
                data-branch={branch.id}
              >
                <div>
                  <Label htmlFor={`${rowId}-label`} className="mb-1 text-xs">
                    Name
                  </Label>
                  <Input
                    id={`${rowId}-label`}
                    controlSize="sm"
                    value={branch.label}
                    disabled={disabled}
                    onChange={(event) => edit(index, { label: event.target.value })}
                  />
                </div>
                <div>
                  <Label htmlFor={`${rowId}-weight`} className="mb-1 text-xs">
                    Weight
                  </Label>
                  <Input
                    id={`${rowId}-weight`}
                    controlSize="sm"
                    type="number"
                    inputMode="decimal"
                    min={0}
                    value={weightText}
                    disabled={disabled}
                    aria-describedby={`${rowId}-share`}
                    onChange={(event) => {
                      const text = event.target.value;
                      setTyped((state) => ({ ...state, [branch.id]: text }));
                      edit(index, { weight: text.trim() === "" ? 0 : Number(text) });
                    }}
                  />
                </div>
                <p
                  id={`${rowId}-share`}
                  className="pb-1.5 text-right text-sm text-zinc-700 tabular-nums"
                  data-testid="split-share"
                >
                  <span className="sr-only">{branch.label || `Branch ${index + 1}`} gets </span>
                  {formatShare(shares[index] ?? 0)}
                </p>
                <Button
                  size="sm"
                  variant="ghost"
                  disabled={disabled || branches.length <= MIN_BRANCHES}
                  aria-label={`Remove ${branch.label || `branch ${index + 1}`}`}
                  onClick={() => save(branches.filter((_, i) => i !== index))}
                >
                  Remove
                </Button>
              </li>
            );
          })}
        </ul>
        <Button size="sm" disabled={disabled || branches.length >= MAX_BRANCHES} onClick={add}>
          Add a branch
        </Button>
        <FieldError id={`${id}-error`}>{listError}</FieldError>
        <FieldHint id={`${id}-help`}>
          Each {by} goes down one branch, in these shares (weight ÷ all weights). The choice is stable: the
          same {by} always takes the same branch. {MIN_BRANCHES} to {MAX_BRANCHES} branches.
        </FieldHint>
      </fieldset>
    </div>
  );
}
