import { z } from "zod";
import type { AlertKind, AlertParams } from "@/lib/db/schema/alerts";

/** The step an alert's email is filed under in the outbox (it has no run): the outbox says so. */
export const ALERT_EMAIL_STEP = "alert";

/**
 * Alert rules in merchant words, and the input a person or client gives for one. Browser-safe:
 * the Settings → Alerts form, the REST API and the server actions parse with the same schemas.
 *
 * Terminology
 *
 *   rule      what to watch (`kind`), about which automation (null: all of the shop's), where to send
 *   channel   the shop's staff by email · a Slack incoming webhook (a credential) · a signed webhook
 *   alert     one message a rule made about one automation, kept in `alert_history` and sent once
 *   window    what an alert is about: a digest's runs, a silence, an hour of a storm (its dedupe key)
 */

export const ALERT_KINDS = [
  "failed_runs",
  "silence",
  "storm",
  "overdue_waits",
  "approval_overdue",
] as const satisfies readonly AlertKind[];

export const CHANNEL_TYPES = ["email", "slack", "webhook"] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

/** Each kind's name, what it watches, and its settings' defaults. */
export const KIND_LABELS: Record<AlertKind, { label: string; hint: string }> = {
  failed_runs: {
    label: "Failed runs",
    hint: "A run failed or partly failed: the first at once, then at most one digest every 15 minutes with counts.",
  },
  silence: {
    label: "Gone quiet",
    hint: "An automation that usually runs at least 3 times a day has had no run for some hours. Once per silence.",
  },
  storm: {
    label: "Run storm",
    hint: "Far more runs than usual in the last hour (5 times its usual busiest hour), more than a number you set, or its hourly cap held runs.",
  },
  overdue_waits: {
    label: "Overdue waits",
    hint: "Runs still waiting some minutes after their wait was due: the worker may be behind or stopped.",
  },
  approval_overdue: {
    label: "Approvals past their reminder",
    hint: "Approvals nobody decided after the approvers were reminded (or a day after they were asked).",
  },
};

export const CHANNEL_LABELS: Record<ChannelType, string> = {
  email: "Email the shop's staff",
  slack: "Slack",
  webhook: "Webhook (signed)",
};

/** The settings each kind uses, with their defaults. */
export const DEFAULT_PARAMS = {
  silenceHours: 6,
  overdueMinutes: 30,
  approvalHours: 24,
} as const;

/** A Standard Webhooks secret: `whsec_` and base64 of 24 to 64 random bytes. */
const WEBHOOK_SECRET = /^whsec_[A-Za-z0-9+/]{32,88}={0,2}$/;

export const channelInput = z.discriminatedUnion(
  "type",
  [
    z.strictObject({ type: z.literal("email") }),
    z.strictObject({
      type: z.literal("slack"),
      credentialId: z.uuid("choose the Slack incoming webhook to post to (Settings → Credentials)"),
      channel: z.string().trim().max(80, "A Slack channel name is at most 80 characters.").optional(),
    }),
    z.strictObject({
      type: z.literal("webhook"),
      url: z
        .string()
        .trim()
        .max(2_000, "The webhook URL is longer than 2,000 characters.")
        .refine(
          (text) => /^https?:\/\/[^\s]+$/.test(text),
          "Enter the web address to post alerts to, starting with https://.",
        ),
      /** Write-only: never sent back. Left out on an update, the stored one stays. */
      secret: z
        .string()
        .trim()
        .regex(
          WEBHOOK_SECRET,
          "The signing secret must look like whsec_ followed by base64 (24 to 64 bytes), as Standard Webhooks secrets do.",
        )
        .optional(),
    }),
  ],
  { error: "Choose where the alert goes: email, slack or webhook." },
);
export type ChannelInput = z.infer<typeof channelInput>;

export const paramsInput = z
  .strictObject({
    hours: z
      .int("The hours must be a whole number.")
      .min(1, "The hours must be at least 1.")
      .max(168, "The hours can be at most 168 (a week).")
      .optional(),
    minutes: z
      .int("The minutes must be a whole number.")
      .min(1, "The minutes must be at least 1.")
      .max(10_080, "The minutes can be at most 10,080 (a week).")
      .optional(),
    maxRunsPerHour: z
      .int("Runs per hour must be a whole number.")
      .min(1, "Runs per hour must be at least 1.")
      .max(1_000_000, "Runs per hour can be at most 1,000,000.")
      .optional(),
  })
  .default({});

export const alertKind = z.enum(ALERT_KINDS, `Choose what to watch: one of ${ALERT_KINDS.join(", ")}.`);

/** `POST /api/v1/alerts`: a new rule. */
export const createAlertInput = z.strictObject({
  kind: alertKind,
  automationId: z.uuid("That is not an automation id.").nullable().optional(),
  channel: channelInput,
  params: paramsInput,
  enabled: z.boolean("Enabled must be true or false.").default(true),
});
export type CreateAlertInput = z.input<typeof createAlertInput>;

/** `PUT /api/v1/alerts/:id`: every field optional; those left out keep their value. */
export const updateAlertInput = z.strictObject({
  kind: alertKind.optional(),
  automationId: z.uuid("That is not an automation id.").nullable().optional(),
  channel: channelInput.optional(),
  params: paramsInput.optional(),
  enabled: z.boolean("Enabled must be true or false.").optional(),
});
export type UpdateAlertInput = z.input<typeof updateAlertInput>;

const plural = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/** What a rule watches, in one line: "Gone quiet: no run for 6 hours". */
export function ruleSentence(kind: AlertKind, params: AlertParams): string {
  switch (kind) {
    case "failed_runs":
      return "A run fails or partly fails (then a digest at most every 15 minutes)";
    case "silence":
      return `No run for ${plural(params.hours ?? DEFAULT_PARAMS.silenceHours, "hour")} where it usually runs at least 3 times a day`;
    case "storm":
      return params.maxRunsPerHour
        ? `More than ${plural(params.maxRunsPerHour, "run")} in an hour, 5 times its usual busiest hour, or its hourly cap holds runs`
        : "5 times its usual busiest hour, or its hourly cap holds runs";
    case "overdue_waits":
      return `A wait still pending ${plural(params.minutes ?? DEFAULT_PARAMS.overdueMinutes, "minute")} after it was due`;
    case "approval_overdue":
      return `An approval still undecided after its reminder (or ${plural(params.hours ?? DEFAULT_PARAMS.approvalHours, "hour")} after it was asked)`;
  }
}
