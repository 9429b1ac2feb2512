"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useId, useState, useTransition, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { FieldHint, Input, Label, Select } from "@/components/ui/form";
import { Notice } from "@/components/ui/notice";
import { createAlertAction } from "@/lib/actions/alerts/create-alert";
import { updateAlertAction } from "@/lib/actions/alerts/update-alert";
import {
  ALERT_KINDS,
  CHANNEL_LABELS,
  CHANNEL_TYPES,
  DEFAULT_PARAMS,
  KIND_LABELS,
  type ChannelInput,
  type ChannelType,
} from "@/lib/alerts/kinds";
import type { AlertKind, AlertParams } from "@/lib/db/schema/alerts";

export interface AlertFormRule {
  id: string;
  kind: AlertKind;
  automationId: string | null;
  params: AlertParams;
  enabled: boolean;
  channel:
    | { type: "email" }
    | { type: "slack"; credentialId: string; channel: string | null }
    | { type: "webhook"; url: string };
}

interface Option {
  id: string;
  name: string;
}

const isKind = (value: string): value is AlertKind => (ALERT_KINDS as readonly string[]).includes(value);
const isChannel = (value: string): value is ChannelType =>
  (CHANNEL_TYPES as readonly string[]).includes(value);

/** The one number each kind asks for, if any. */
const PARAM_FIELD: Partial<Record<AlertKind, { key: keyof AlertParams; label: string; hint: string }>> = {
  silence: { key: "hours", label: "Hours without a run", hint: `Default ${DEFAULT_PARAMS.silenceHours}.` },
  storm: {
    key: "maxRunsPerHour",
    label: "Runs in an hour that always count as a storm (optional)",
    hint: "Leave empty to alert only at 5 times the usual busiest hour, or when a cap holds runs.",
  },
  overdue_waits: {
    key: "minutes",
    label: "Minutes past due",
    hint: `Default ${DEFAULT_PARAMS.overdueMinutes}.`,
  },
  approval_overdue: {
    key: "hours",
    label: "Hours after the ask, for approvals without a reminder",
    hint: `Default ${DEFAULT_PARAMS.approvalHours}.`,
  },
};

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
  const [kind, setKind] = useState<AlertKind>(initial?.kind ?? "failed_runs");
  const [automationId, setAutomationId] = useState(initial?.automationId ?? "");
  const [param, setParam] = useState(() => {
    const field = PARAM_FIELD[initial?.kind ?? "failed_runs"];
    const value = field && initial ? initial.params[field.key] : undefined;
    return value === undefined ? "" : String(value);
  });
  const [channelType, setChannelType] = useState<ChannelType>(initial?.channel.type ?? "email");
  const [credentialId, setCredentialId] = useState(
    initial?.channel.type === "slack" ? initial.channel.credentialId : (slackCredentials[0]?.id ?? ""),
  );
  const [slackChannel, setSlackChannel] = useState(
    initial?.channel.type === "slack" ? (initial.channel.channel ?? "") : "",
  );
  const [url, setUrl] = useState(initial?.channel.type === "webhook" ? initial.channel.url : "");
  const [secret, setSecret] = useState("");
  const [enabled, setEnabled] = useState(initial?.enabled ?? true);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const ids = {
    kind: useId(),
    kindHint: useId(),
    automation: useId(),
    param: useId(),
    paramHint: useId(),
    channel: useId(),
    credential: useId(),
    slackChannel: useId(),
    url: useId(),
    secret: useId(),
    secretHint: useId(),
    enabled: useId(),
  };
  const field = PARAM_FIELD[kind];

  function channel(): ChannelInput {
    if (channelType === "slack")
      return slackChannel.trim()
        ? { type: "slack", credentialId, channel: slackChannel.trim() }
        : { type: "slack", credentialId };
    if (channelType === "webhook")
      return secret.trim() ? { type: "webhook", url, secret: secret.trim() } : { type: "webhook", url };
    return { type: "email" };
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    setSaved(null);
    const params: AlertParams = {};
    if (field && param.trim()) {
      const n = Number(param);
      if (!Number.isInteger(n) || n < 1) {
        setError(`${field.label.replace(/ \(optional\)$/, "")} must be a whole number of at least 1.`);
        return;
      }
      params[field.key] = n;
    }
    const input = { kind, automationId: automationId || null, channel: channel(), params, enabled };
    startTransition(async () => {
      const result = initial
        ? await updateAlertAction({ id: initial.id, changes: input })
        : await createAlertAction(input);
      if (!result.ok) {
        setError(result.error);
        return;
      }
      // The secret leaves the page as soon as it is stored.
      setSecret("");
      if (initial) router.push("/settings/alerts");
      else
        setSaved(
          `Saved: ${result.data.sentence}, about ${result.data.automationName ? `'${result.data.automationName}'` : "every automation"}.`,
        );
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
              value={kind}
              aria-describedby={ids.kindHint}
              onChange={(e) => {
                if (!isKind(e.target.value)) return;
                setKind(e.target.value);
                setParam("");
              }}
              className="mt-1.5"
            >
              {ALERT_KINDS.map((k) => (
                <option key={k} value={k}>
                  {KIND_LABELS[k].label}
                </option>
              ))}
            </Select>
            <FieldHint id={ids.kindHint}>{KIND_LABELS[kind].hint}</FieldHint>
          </div>
          <div>
            <Label htmlFor={ids.automation}>Automation</Label>
            <Select
              id={ids.automation}
              value={automationId}
              onChange={(e) => setAutomationId(e.target.value)}
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
                value={param}
                aria-describedby={ids.paramHint}
                onChange={(e) => setParam(e.target.value)}
                className="mt-1.5"
              />
              <FieldHint id={ids.paramHint}>{field.hint}</FieldHint>
            </div>
          )}
          <div>
            <Label htmlFor={ids.channel}>Send to</Label>
            <Select
              id={ids.channel}
              value={channelType}
              onChange={(e) => isChannel(e.target.value) && setChannelType(e.target.value)}
              className="mt-1.5"
            >
              {CHANNEL_TYPES.map((c) => (
                <option key={c} value={c}>
                  {CHANNEL_LABELS[c]}
                </option>
              ))}
            </Select>
          </div>
          {channelType === "slack" &&
            (slackCredentials.length === 0 ? (
              <div className="sm:col-span-2">
                <Notice tone="info">
                  Add a Slack incoming webhook in{" "}
                  <Link href="/settings/credentials" className="underline">
                    Settings → Credentials
                  </Link>{" "}
                  first, then choose it here.
                </Notice>
              </div>
            ) : (
              <>
                <div>
                  <Label htmlFor={ids.credential}>Slack webhook</Label>
                  <Select
                    id={ids.credential}
                    value={credentialId}
                    onChange={(e) => setCredentialId(e.target.value)}
                    className="mt-1.5"
                  >
                    {slackCredentials.map((c) => (
                      <option key={c.id} value={c.id}>
                        {c.name}
                      </option>
                    ))}
                  </Select>
                </div>
                <div>
                  <Label htmlFor={ids.slackChannel}>Channel (optional)</Label>
                  <Input
                    id={ids.slackChannel}
                    value={slackChannel}
                    placeholder="#ops"
                    onChange={(e) => setSlackChannel(e.target.value)}
                    className="mt-1.5"
                  />
                </div>
              </>
            ))}
          {channelType === "webhook" && (
            <>
              <div>
                <Label htmlFor={ids.url}>Webhook URL</Label>
                <Input
                  id={ids.url}
                  type="url"
                  value={url}
                  placeholder="https://example.com/tillflow-alerts"
                  autoComplete="off"
                  onChange={(e) => setUrl(e.target.value)}
                  className="mt-1.5"
                />
              </div>
              <div>
                <Label htmlFor={ids.secret}>Signing secret</Label>
                <Input
                  id={ids.secret}
                  type="password"
                  value={secret}
                  autoComplete="off"
                  placeholder={
                    initial?.channel.type === "webhook" ? "Leave empty to keep the one stored" : "whsec_…"
                  }
                  aria-describedby={ids.secretHint}
                  onChange={(e) => setSecret(e.target.value)}
                  className="mt-1.5"
                />
                <FieldHint id={ids.secretHint}>
                  Alerts are signed with Standard Webhooks headers under this secret. It is never shown again.
                </FieldHint>
              </div>
            </>
          )}
          <div className="flex items-center gap-2 sm:col-span-2">
            <input
              id={ids.enabled}
              type="checkbox"
              checked={enabled}
              onChange={(e) => setEnabled(e.target.checked)}
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
        {error && <Notice tone="error">{error}</Notice>}
        {saved && <Notice tone="success">{saved}</Notice>}
      </CardBody>
    </Card>
  );
}
