"use client";

import { useId, useState, type ComponentProps, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { FieldHint, Input, Label } from "@/components/ui/form";
import { Notice } from "@/components/ui/notice";
import { useServerAction } from "@/components/ui/hooks/use-server-action";
import { updateMessagingAction } from "@/lib/actions/settings/update-messaging";
import type { MessagingSettings } from "@/lib/messaging/settings";

type Outcome = { tone: "success" | "error"; text: string } | null;

/**
 * Quiet hours and the shop's cap on marketing messages (issue 51, items 3–4). Both apply to
 * marketing steps only; a transactional message always goes at once.
 */
export function MessagingSection({ settings, canEdit }: { settings: MessagingSettings; canEdit: boolean }) {
  const [quietOn, setQuietOn] = useState(settings.quietHours !== null);
  const [capOn, setCapOn] = useState(settings.cap !== null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const updateMessaging = useServerAction(updateMessagingAction);
  const ids = {
    quiet: useId(),
    quietHint: useId(),
    cap: useId(),
    capHint: useId(),
  };

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const input = {
      quietHours: quietOn
        ? { start: String(data.get("start") ?? ""), end: String(data.get("end") ?? "") }
        : null,
      cap: capOn ? { count: Number(data.get("count")), hours: Number(data.get("hours")) } : null,
    };
    setOutcome(null);
    updateMessaging.run(input, (result) => {
      setOutcome(
        result.ok
          ? { tone: "success", text: `Saved. ${result.data.sentence}` }
          : { tone: "error", text: result.error },
      );
    });
  }

  return (
    <Card>
      <CardHeader
        title="Quiet hours and message limits"
        description="For marketing messages only: transactional ones (receipts, shipping updates) always go at once."
      />
      <CardBody>
        <form
          onSubmit={submit}
          className="grid gap-6 sm:grid-cols-2"
          aria-label="Quiet hours and message limits"
        >
          <fieldset className="space-y-3" disabled={!canEdit}>
            <legend className="text-sm font-medium text-zinc-900">Quiet hours</legend>
            <label className="flex items-center gap-2 text-sm text-zinc-700" htmlFor={ids.quiet}>
              <input
                id={ids.quiet}
                type="checkbox"
                checked={quietOn}
                onChange={(e) => setQuietOn(e.target.checked)}
                aria-describedby={ids.quietHint}
              />
              Hold marketing messages during quiet hours
            </label>
            <div className="flex gap-3">
              <LabelledInput
                label="From"
                name="start"
                type="time"
                defaultValue={settings.quietHours?.start ?? "21:00"}
                disabled={!quietOn || !canEdit}
              />
              <LabelledInput
                label="Until"
                name="end"
                type="time"
                defaultValue={settings.quietHours?.end ?? "08:00"}
                disabled={!quietOn || !canEdit}
              />
            </div>
            <FieldHint id={ids.quietHint}>
              In each customer&apos;s own time: their time zone, else their address&apos;s, else the
              shop&apos;s. A message due then waits until quiet hours end.
            </FieldHint>
          </fieldset>
          <fieldset className="space-y-3" disabled={!canEdit}>
            <legend className="text-sm font-medium text-zinc-900">Marketing messages per customer</legend>
            <label className="flex items-center gap-2 text-sm text-zinc-700" htmlFor={ids.cap}>
              <input
                id={ids.cap}
                type="checkbox"
                checked={capOn}
                onChange={(e) => setCapOn(e.target.checked)}
                aria-describedby={ids.capHint}
              />
              Limit marketing messages per customer, across all automations
            </label>
            <div className="flex gap-3">
              <LabelledInput
                label="At most"
                name="count"
                type="number"
                defaultValue={settings.cap?.count ?? 1}
                disabled={!capOn || !canEdit}
                min={1}
                max={50}
                className="w-24"
              />
              <LabelledInput
                label="Every (hours)"
                name="hours"
                type="number"
                defaultValue={settings.cap?.hours ?? 16}
                disabled={!capOn || !canEdit}
                min={1}
                max={720}
                className="w-24"
              />
            </div>
            <FieldHint id={ids.capHint}>
              A message over the limit is deferred, not dropped: when the customer&apos;s window opens, the
              automation with the highest priority goes first, after its conditions are checked again.
            </FieldHint>
          </fieldset>
          {canEdit ? (
            <div className="flex items-center gap-3 sm:col-span-2">
              <Button type="submit" variant="primary" pending={updateMessaging.pending}>
                Save limits
              </Button>
              {outcome && <Notice tone={outcome.tone}>{outcome.text}</Notice>}
            </div>
          ) : (
            <p className="text-sm text-zinc-600 sm:col-span-2">Only an admin can change these.</p>
          )}
        </form>
      </CardBody>
    </Card>
  );
}

/** One required field of the form, its label above it. */
function LabelledInput({ label, className, ...props }: ComponentProps<"input"> & { label: string }) {
  const id = useId();
  return (
    <div>
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} required className={cn("mt-1.5", className)} {...props} />
    </div>
  );
}
