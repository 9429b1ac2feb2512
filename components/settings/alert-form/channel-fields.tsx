"use client";

import Link from "next/link";
import { useId, type Dispatch } from "react";
import { FieldHint, Input, Label, Select } from "@/components/ui/form";
import { Notice } from "@/components/ui/notice";
import type { AlertFormAction, AlertFormState } from "./state";

interface Option {
  id: string;
  name: string;
}

/**
 * Where an alert goes, beyond email: the Slack webhook and channel, or the webhook's address and
 * its signing secret (typed once, never shown again; `secretStored`: one is kept already).
 */
export function ChannelFields({
  state,
  dispatch,
  slackCredentials,
  secretStored,
}: {
  state: AlertFormState;
  dispatch: Dispatch<AlertFormAction>;
  slackCredentials: Option[];
  secretStored: boolean;
}) {
  const ids = {
    credential: useId(),
    slackChannel: useId(),
    url: useId(),
    secret: useId(),
    secretHint: useId(),
  };
  const set = (field: "credentialId" | "slackChannel" | "url" | "secret") => (value: string) =>
    dispatch({ type: "field", field, value });

  if (state.channelType === "slack")
    return slackCredentials.length === 0 ? (
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
            value={state.credentialId}
            onChange={(e) => set("credentialId")(e.target.value)}
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
            value={state.slackChannel}
            placeholder="#ops"
            onChange={(e) => set("slackChannel")(e.target.value)}
            className="mt-1.5"
          />
        </div>
      </>
    );
  if (state.channelType === "webhook")
    return (
      <>
        <div>
          <Label htmlFor={ids.url}>Webhook URL</Label>
          <Input
            id={ids.url}
            type="url"
            value={state.url}
            placeholder="https://example.com/tillflow-alerts"
            autoComplete="off"
            onChange={(e) => set("url")(e.target.value)}
            className="mt-1.5"
          />
        </div>
        <div>
          <Label htmlFor={ids.secret}>Signing secret</Label>
          <Input
            id={ids.secret}
            type="password"
            value={state.secret}
            autoComplete="off"
            placeholder={secretStored ? "Leave empty to keep the one stored" : "whsec_…"}
            aria-describedby={ids.secretHint}
            onChange={(e) => set("secret")(e.target.value)}
            className="mt-1.5"
          />
          <FieldHint id={ids.secretHint}>
            Alerts are signed with Standard Webhooks headers under this secret. It is never shown again.
          </FieldHint>
        </div>
      </>
    );
  return null;
}
