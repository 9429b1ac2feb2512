"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useId, useReducer, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { FieldHint, Input, Label, Select } from "@/components/ui/form";
import { Notice } from "@/components/ui/notice";
import { useServerAction } from "@/components/ui/hooks/use-server-action";
import { createAlertAction } from "@/lib/actions/alerts/create-alert";
import { updateAlertAction } from "@/lib/actions/alerts/update-alert";
import { ALERT_KINDS, CHANNEL_LABELS, CHANNEL_TYPES, KIND_LABELS } from "@/lib/alerts/kinds";
import type { AlertKind } from "@/lib/db/schema/alerts";
import { ChannelFields } from "./channel-fields";
import {
  alertFormReducer,
  alertInput,
  initialAlertForm,
  isChannel,
  PARAM_FIELD,
  type AlertFormRule,
} from "./state";

export type { AlertFormRule } from "./state";

interface Option {
  id: string;
  name: string;
}

const isKind = (value: string): value is AlertKind => (ALERT_KINDS as readonly string[]).includes(value);

/**
 * Admins: add an alert rule, or change one (`initial`). What to watch, about which automation,
 * and where to send; a webhook's signing secret is typed once and never shown again.
 */
export function AlertForm({
  automations,
  slackCredentials,
  initial,
}: {
  automations: Option[];
  slackCredentials: Option[];
  initial?: AlertFormRule;
}) {
  const router = useRouter();
  const [state, dispatch] = useReducer(alertFormReducer, undefined, () =>
    initialAlertForm(initial, slackCredentials),
  );
  const createAlert = useServerAction(createAlertAction);
  const updateAlert = useServerAction(updateAlertAction);
  const pending = createAlert.pending || updateAlert.pending;
  const ids = {
    kind: useId(),
    kindHint: useId(),
    automation: useId(),
    param: useId(),
    paramHint: useId(),
    channel: useId(),
    enabled: useId(),
  };
  const field = PARAM_FIELD[state.kind];

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    dispatch({ type: "submitting" });
    const checked = alertInput(state);
    if (!checked.ok) {
      dispatch({ type: "failed", error: checked.error });
      return;
    }
    const { input } = checked;
    if (initial)
      updateAlert.run({ id: initial.id, changes: input }, (result) => {
        if (!result.ok) return dispatch({ type: "failed", error: result.error });
        dispatch({ type: "stored", saved: null });
        router.push("/settings/alerts");
      });
    else
      createAlert.run(input, (result) => {
        if (!result.ok) return dispatch({ type: "failed", error: result.error });
        dispatch({
          type: "stored",
          saved: `Saved: ${result.data.sentence}, about ${result.data.automationName ? `'${result.data.automationName}'` : "every automation"}.`,
        });
      });
  }

  return (
    <Card>
      <CardHeader
        title={initial ? "Change this alert" : "Add an alert"}
        description="What to watch, about which automation, and who to tell. Each alert names the automation, says what happened and links to its runs."
      />
      <CardBody className="space-y-4">
        <form
          onSubmit={submit}
          noValidate
          aria-label={initial ? "Change alert" : "Add alert"}
          className="grid gap-4 sm:grid-cols-2"
        >
          <div>
            <Label htmlFor={ids.kind}>Alert me when</Label>
            <Select
              id={ids.kind}
              value={state.kind}
              aria-describedby={ids.kindHint}
              onChange={(e) => {
                if (!isKind(e.target.value)) return;
                dispatch({ type: "kind", kind: e.target.value });
              }}
              className="mt-1.5"
            >
              {ALERT_KINDS.map((k) => (
                <option key={k} value={k}>
                  {KIND_LABELS[k].label}
                </option>
              ))}
            </Select>
            <FieldHint id={ids.kindHint}>{KIND_LABELS[state.kind].hint}</FieldHint>
          </div>
          <div>
            <Label htmlFor={ids.automation}>Automation</Label>
            <Select
              id={ids.automation}
              value={state.automationId}
              onChange={(e) => dispatch({ type: "field", field: "automationId", value: e.target.value })}
              className="mt-1.5"
            >
              <option value="">Every automation</option>
              {automations.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name}
                </option>
              ))}
            </Select>
          </div>
          {field && (
            <div>
              <Label htmlFor={ids.param}>{field.label}</Label>
              <Input
                id={ids.param}
                inputMode="numeric"
                value={state.param}
                aria-describedby={ids.paramHint}
                onChange={(e) => dispatch({ type: "field", field: "param", value: e.target.value })}
                className="mt-1.5"
              />
              <FieldHint id={ids.paramHint}>{field.hint}</FieldHint>
            </div>
          )}
          <div>
            <Label htmlFor={ids.channel}>Send to</Label>
            <Select
              id={ids.channel}
              value={state.channelType}
              onChange={(e) =>
                isChannel(e.target.value) && dispatch({ type: "channel", channelType: e.target.value })
              }
              className="mt-1.5"
            >
              {CHANNEL_TYPES.map((c) => (
                <option key={c} value={c}>
                  {CHANNEL_LABELS[c]}
                </option>
              ))}
            </Select>
          </div>
          <ChannelFields
            state={state}
            dispatch={dispatch}
            slackCredentials={slackCredentials}
            secretStored={initial?.channel.type === "webhook"}
          />
          <div className="flex items-center gap-2 sm:col-span-2">
            <input
              id={ids.enabled}
              type="checkbox"
              checked={state.enabled}
              onChange={(e) => dispatch({ type: "enabled", enabled: e.target.checked })}
              className="h-4 w-4 rounded border-zinc-300"
            />
            <Label htmlFor={ids.enabled}>On: evaluate this alert every minute</Label>
          </div>
          <div className="flex gap-3 sm:col-span-2">
            <Button type="submit" variant="primary" pending={pending}>
              {initial ? "Save changes" : "Add alert"}
            </Button>
            {initial && (
              <Link href="/settings/alerts" className="self-center text-sm text-zinc-700 underline">
                Cancel
              </Link>
            )}
          </div>
        </form>
        {state.error && <Notice tone="error">{state.error}</Notice>}
        {state.saved && <Notice tone="success">{state.saved}</Notice>}
      </CardBody>
    </Card>
  );
}
