"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { FieldHint, Input, Label } from "@/components/ui/form";
import { useServerAction } from "@/components/ui/hooks/use-server-action";
import { setCapsAction } from "@/lib/actions/automations/set-caps";
import { capsSentence } from "@/lib/automations/caps/caps";
import type { AutomationCaps } from "@/lib/db/schema";

/** A number field's value: null when empty (the limit is off), else the number typed. */
const limit = (text: string) => (text.trim() === "" ? null : Number(text));

/**
 * An automation's caps: at most N runs an hour, at most N runs per record every H hours, and
 * whether a storm pauses it. Saved at once, without a new version; viewers read the sentence.
 */
export function CapsForm({
  automationId,
  caps,
  canEdit,
}: {
  automationId: string;
  caps: AutomationCaps;
  canEdit: boolean;
}) {
  const router = useRouter();
  const [perHour, setPerHour] = useState(caps.maxRunsPerHour?.toString() ?? "");
  const [perRecord, setPerRecord] = useState(caps.maxPerRecord?.count.toString() ?? "");
  const [hours, setHours] = useState(caps.maxPerRecord?.hours.toString() ?? "24");
  const [pause, setPause] = useState(caps.pauseOnStorm ?? false);
  const setCaps = useServerAction(setCapsAction);
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const sentence = capsSentence(Object.keys(caps).length > 0 ? caps : null);

  if (!canEdit) return <p className="text-sm text-zinc-700">{sentence}</p>;

  return (
    <form
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        const count = limit(perRecord);
        const input = {
          id: automationId,
          maxRunsPerHour: limit(perHour),
          maxPerRecord: count === null ? null : { count, hours: Number(hours) },
          pauseOnStorm: pause,
        };
        setCaps.run(input, (result) => {
          setMessage(
            result.ok
              ? {
                  error: false,
                  text: `Saved. ${capsSentence(Object.keys(result.data.caps).length > 0 ? result.data.caps : null)}`,
                }
              : { error: true, text: result.error },
          );
          if (result.ok) router.refresh();
        });
      }}
    >
      <p className="text-sm text-zinc-700">{sentence}</p>
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <Label htmlFor="caps-per-hour">Runs per hour, at most</Label>
          <Input
            id="caps-per-hour"
            type="number"
            min={1}
            inputMode="numeric"
            value={perHour}
            onChange={(e) => setPerHour(e.target.value)}
            placeholder="No limit"
            className="mt-1.5"
            aria-describedby="caps-per-hour-hint"
          />
          <FieldHint id="caps-per-hour-hint">Counted over the last hour. Leave empty for no limit.</FieldHint>
        </div>
        <fieldset>
          <legend className="text-sm font-medium text-zinc-900">Runs per record, at most</legend>
          <div className="mt-1.5 flex items-center gap-2">
            <Input
              aria-label="Runs per record"
              type="number"
              min={1}
              inputMode="numeric"
              value={perRecord}
              onChange={(e) => setPerRecord(e.target.value)}
              placeholder="No limit"
              className="w-28"
            />
            <span className="text-sm text-zinc-700">every</span>
            <Input
              aria-label="Hours per record"
              type="number"
              min={1}
              max={720}
              inputMode="numeric"
              value={hours}
              onChange={(e) => setHours(e.target.value)}
              className="w-24"
            />
            <span className="text-sm text-zinc-700">hours</span>
          </div>
          <FieldHint>&ldquo;At most one email per customer every 16 hours.&rdquo;</FieldHint>
        </fieldset>
      </div>
      <label className="flex items-center gap-2 text-sm text-zinc-900">
        <input
          type="checkbox"
          checked={pause}
          onChange={(e) => setPause(e.target.checked)}
          className="size-4 rounded border-zinc-300"
        />
        Pause the automation when it passes its hourly limit
      </label>
      <div className="flex items-center gap-3">
        <Button type="submit" disabled={setCaps.pending}>
          Save caps
        </Button>
        <span role="status" className={message?.error ? "text-sm text-red-700" : "text-sm text-zinc-700"}>
          {message?.text}
        </span>
      </div>
    </form>
  );
}
