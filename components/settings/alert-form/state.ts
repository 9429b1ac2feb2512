import { CHANNEL_TYPES, DEFAULT_PARAMS, type ChannelInput, type ChannelType } from "@/lib/alerts/kinds";
import type { AlertKind, AlertParams } from "@/lib/db/schema/alerts";

/** An alert rule as the form edits it (the admin's page reads it from the rule). */
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

/** The one number each kind asks for, if any. */
export const PARAM_FIELD: Partial<
  Record<AlertKind, { key: keyof AlertParams; label: string; hint: string }>
> = {
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

/** Everything the form holds, in one place. */
export interface AlertFormState {
  kind: AlertKind;
  automationId: string;
  /** The kind's number as typed (PARAM_FIELD). */
  param: string;
  channelType: ChannelType;
  credentialId: string;
  slackChannel: string;
  url: string;
  /** Typed once; cleared as soon as it is stored. */
  secret: string;
  enabled: boolean;
  error: string | null;
  saved: string | null;
}

type TextField = "automationId" | "param" | "credentialId" | "slackChannel" | "url" | "secret";

export type AlertFormAction =
  | { type: "field"; field: TextField; value: string }
  /** Another kind asks for another number: the one typed goes. */
  | { type: "kind"; kind: AlertKind }
  | { type: "channel"; channelType: ChannelType }
  | { type: "enabled"; enabled: boolean }
  | { type: "submitting" }
  | { type: "failed"; error: string }
  /** Stored: the secret leaves the page, and a new rule's sentence is shown. */
  | { type: "stored"; saved: string | null };

export function initialAlertForm(
  initial: AlertFormRule | undefined,
  slackCredentials: readonly { id: string }[],
): AlertFormState {
  const kind = initial?.kind ?? "failed_runs";
  const field = PARAM_FIELD[kind];
  const value = field && initial ? initial.params[field.key] : undefined;
  const channel = initial?.channel;
  return {
    kind,
    automationId: initial?.automationId ?? "",
    param: value === undefined ? "" : String(value),
    channelType: channel?.type ?? "email",
    credentialId: channel?.type === "slack" ? channel.credentialId : (slackCredentials[0]?.id ?? ""),
    slackChannel: channel?.type === "slack" ? (channel.channel ?? "") : "",
    url: channel?.type === "webhook" ? channel.url : "",
    secret: "",
    enabled: initial?.enabled ?? true,
    error: null,
    saved: null,
  };
}

export function alertFormReducer(state: AlertFormState, action: AlertFormAction): AlertFormState {
  switch (action.type) {
    case "field":
      return { ...state, [action.field]: action.value };
    case "kind":
      return { ...state, kind: action.kind, param: "" };
    case "channel":
      return { ...state, channelType: action.channelType };
    case "enabled":
      return { ...state, enabled: action.enabled };
    case "submitting":
      return { ...state, error: null, saved: null };
    case "failed":
      return { ...state, error: action.error };
    case "stored":
      return { ...state, secret: "", saved: action.saved };
  }
}

export const isChannel = (value: string): value is ChannelType =>
  (CHANNEL_TYPES as readonly string[]).includes(value);

function channelOf(state: AlertFormState): ChannelInput {
  if (state.channelType === "slack")
    return state.slackChannel.trim()
      ? { type: "slack", credentialId: state.credentialId, channel: state.slackChannel.trim() }
      : { type: "slack", credentialId: state.credentialId };
  if (state.channelType === "webhook")
    return state.secret.trim()
      ? { type: "webhook", url: state.url, secret: state.secret.trim() }
      : { type: "webhook", url: state.url };
  return { type: "email" };
}

/** The rule to store, or the sentence that says why the number typed will not do. */
export function alertInput(state: AlertFormState):
  | {
      ok: true;
      input: {
        kind: AlertKind;
        automationId: string | null;
        channel: ChannelInput;
        params: AlertParams;
        enabled: boolean;
      };
    }
  | { ok: false; error: string } {
  const field = PARAM_FIELD[state.kind];
  const params: AlertParams = {};
  if (field && state.param.trim()) {
    const n = Number(state.param);
    if (!Number.isInteger(n) || n < 1)
      return {
        ok: false,
        error: `${field.label.replace(/ \(optional\)$/, "")} must be a whole number of at least 1.`,
      };
    params[field.key] = n;
  }
  return {
    ok: true,
    input: {
      kind: state.kind,
      automationId: state.automationId || null,
      channel: channelOf(state),
      params,
      enabled: state.enabled,
    },
  };
}
