"use client";

import { useId, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { FieldHint, Label, Select } from "@/components/ui/form";
import { Notice } from "@/components/ui/notice";
import { useServerAction } from "@/components/ui/hooks/use-server-action";
import { setHoldoutAction } from "@/lib/actions/automations/set-holdout";
import { HOLDOUT_CHOICES } from "@/lib/automations/performance/words";

/** "Hold out N % of customers" on the Performance tab (editors; others read it). */
export function HoldoutForm({
  automationId,
  percent,
  canEdit,
}: {
  automationId: string;
  percent: number;
  canEdit: boolean;
}) {
  const [value, setValue] = useState(String(percent));
  const [outcome, setOutcome] = useState<{ tone: "success" | "error"; text: string } | null>(null);
  const setHoldout = useServerAction(setHoldoutAction);
  const ids = { select: useId(), hint: useId() };
  const choices: number[] = HOLDOUT_CHOICES.includes(percent as (typeof HOLDOUT_CHOICES)[number])
    ? [...HOLDOUT_CHOICES]
    : [...HOLDOUT_CHOICES, percent].sort((a, b) => a - b);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setOutcome(null);
    setHoldout.run({ id: automationId, percent: Number(value) }, (result) => {
      setOutcome(
        result.ok
          ? {
              tone: "success",
              text:
                result.data.holdoutPercent === 0
                  ? "Saved: every customer gets the automation."
                  : `Saved: ${result.data.holdoutPercent}% of customers are held out from the next run on.`,
            }
          : { tone: "error", text: result.error },
      );
    });
  }

  return (
    <form onSubmit={submit} className="flex flex-wrap items-end gap-3">
      <div>
        <Label htmlFor={ids.select}>Hold out</Label>
        <Select
          id={ids.select}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          disabled={!canEdit}
          aria-describedby={ids.hint}
          className="mt-1.5 w-48"
        >
          {choices.map((p) => (
            <option key={p} value={p}>
              {p === 0 ? "No one (off)" : `${p}% of customers`}
            </option>
          ))}
        </Select>
      </div>
      {canEdit && (
        <Button type="submit" pending={setHoldout.pending}>
          Save
        </Button>
      )}
      <FieldHint id={ids.hint} className="basis-full">
        A held-out customer&apos;s run takes no actions and shows “Held out”; the same customer is always held
        out or always treated. Comparing the two groups shows what the automation adds.
      </FieldHint>
      {outcome && (
        <Notice tone={outcome.tone} className="basis-full">
          {outcome.text}
        </Notice>
      )}
    </form>
  );
}
