"use client";

import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { FieldHint, Input, Label, Select } from "@/components/ui/form";
import { useServerAction } from "@/components/ui/hooks/use-server-action";
import { setMessagingAction } from "@/lib/actions/automations/set-messaging";
import { PRIORITIES, PRIORITY_LABELS, type Priority } from "@/lib/messaging/settings";

const sentence = (priority: Priority, hours: number) =>
  `${PRIORITY_LABELS[priority]} priority; a deferred message expires after ${hours} hour${hours === 1 ? "" : "s"}.`;

/**
 * An automation's message priority (which of a customer's deferred marketing messages goes first
 * when the shop's cap lets one through) and how long one may stay deferred. Saved at once.
 */
export function MessagePriorityForm({
  automationId,
  priority,
  expireAfterHours,
  canEdit,
}: {
  automationId: string;
  priority: Priority;
  expireAfterHours: number;
  canEdit: boolean;
}) {
  const router = useRouter();
  const ids = { priority: useId(), hours: useId(), hint: useId() };
  const [value, setValue] = useState<Priority>(priority);
  const [hours, setHours] = useState(String(expireAfterHours));
  const setMessaging = useServerAction(setMessagingAction);
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);

  if (!canEdit) return <p className="text-sm text-zinc-700">{sentence(priority, expireAfterHours)}</p>;
  return (
    <form
      className="space-y-3"
      aria-label="Message priority"
      onSubmit={(event) => {
        event.preventDefault();
        setMessaging.run(
          {
            id: automationId,
            priority: value,
            expireAfterHours: Number(hours),
          },
          (result) => {
            setMessage(
              result.ok
                ? {
                    error: false,
                    text: `Saved. ${sentence(result.data.priority, result.data.expireAfterHours)}`,
                  }
                : { error: true, text: result.error },
            );
            if (result.ok) router.refresh();
          },
        );
      }}
    >
      <div className="flex flex-wrap gap-4">
        <div>
          <Label htmlFor={ids.priority}>Priority</Label>
          <Select
            id={ids.priority}
            value={value}
            onChange={(e) => setValue(e.target.value as Priority)}
            aria-describedby={ids.hint}
            className="mt-1.5"
          >
            {PRIORITIES.map((p) => (
              <option key={p} value={p}>
                {PRIORITY_LABELS[p]}
              </option>
            ))}
          </Select>
        </div>
        <div>
          <Label htmlFor={ids.hours}>Expire deferred messages after (hours)</Label>
          <Input
            id={ids.hours}
            type="number"
            min={1}
            max={720}
            value={hours}
            onChange={(e) => setHours(e.target.value)}
            className="mt-1.5 w-28"
          />
        </div>
      </div>
      <FieldHint id={ids.hint}>
        When the shop&apos;s limit holds back several marketing messages for one customer, the highest
        priority goes first (then the oldest).
      </FieldHint>
      <div className="flex items-center gap-3">
        <Button type="submit" pending={setMessaging.pending}>
          Save priority
        </Button>
        {message && (
          <p role="status" className={message.error ? "text-sm text-red-700" : "text-sm text-zinc-700"}>
            {message.text}
          </p>
        )}
      </div>
    </form>
  );
}
