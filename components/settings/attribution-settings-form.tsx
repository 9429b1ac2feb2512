"use client";

import { useId, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { FieldHint, Input, Label, Select } from "@/components/ui/form";
import { Notice } from "@/components/ui/notice";
import { useServerAction } from "@/components/ui/hooks/use-server-action";
import { setAttributionAction } from "@/lib/actions/settings/set-attribution";
import type { AttributionSettings } from "@/lib/automations/performance/settings";
import { GOAL_LABELS, GOALS } from "@/lib/automations/performance/words";

/** The goal every automation's Performance tab counts, and how long after a message an order still counts. */
export function AttributionSettingsForm({
  settings,
  canEdit,
}: {
  settings: AttributionSettings;
  canEdit: boolean;
}) {
  const [outcome, setOutcome] = useState<{ tone: "success" | "error"; text: string } | null>(null);
  const setAttribution = useServerAction(setAttributionAction);
  const ids = {
    goal: useId(),
    window: useId(),
    windowHint: useId(),
    currency: useId(),
    currencyHint: useId(),
  };

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const currency = String(data.get("currency") ?? "").trim();
    const input = {
      goal: String(data.get("goal")) as AttributionSettings["goal"],
      windowDays: Number(data.get("windowDays")),
      currency: currency === "" ? null : currency,
    };
    setOutcome(null);
    setAttribution.run(input, (result) => {
      setOutcome(
        result.ok
          ? { tone: "success", text: "Saved. Orders from now on are counted this way." }
          : { tone: "error", text: result.error },
      );
    });
  }

  return (
    <Card>
      <CardHeader
        title="Does it pay"
        description="What counts as a conversion on every automation's Performance tab. An order is given to the customer's latest message from any automation within the window, once."
      />
      <CardBody>
        <form onSubmit={submit} className="grid gap-4 sm:grid-cols-3">
          <div>
            <Label htmlFor={ids.goal}>Goal</Label>
            <Select
              id={ids.goal}
              name="goal"
              defaultValue={settings.goal}
              disabled={!canEdit}
              className="mt-1.5"
            >
              {GOALS.map((g) => (
                <option key={g} value={g}>
                  {GOAL_LABELS[g]}
                </option>
              ))}
            </Select>
          </div>
          <div>
            <Label htmlFor={ids.window}>Attribution window (days)</Label>
            <Input
              id={ids.window}
              name="windowDays"
              type="number"
              min={1}
              max={30}
              required
              defaultValue={settings.windowDays}
              disabled={!canEdit}
              aria-describedby={ids.windowHint}
              className="mt-1.5"
            />
            <FieldHint id={ids.windowHint} className="mt-1.5">
              1 to 30 days after a message; 5 unless you change it.
            </FieldHint>
          </div>
          <div>
            <Label htmlFor={ids.currency}>Report currency</Label>
            <Input
              id={ids.currency}
              name="currency"
              maxLength={3}
              placeholder="EUR"
              defaultValue={settings.currency ?? ""}
              disabled={!canEdit}
              aria-describedby={ids.currencyHint}
              className="mt-1.5"
            />
            <FieldHint id={ids.currencyHint} className="mt-1.5">
              Empty: the currency most orders are in. Orders in others are listed apart, never added in.
            </FieldHint>
          </div>
          {canEdit ? (
            <div className="flex items-center gap-3 sm:col-span-3">
              <Button type="submit" variant="primary" pending={setAttribution.pending}>
                Save
              </Button>
              {outcome && <Notice tone={outcome.tone}>{outcome.text}</Notice>}
            </div>
          ) : (
            <p className="text-sm text-zinc-600 sm:col-span-3">Only an admin can change these settings.</p>
          )}
        </form>
      </CardBody>
    </Card>
  );
}
