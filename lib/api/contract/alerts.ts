import { z } from "zod";
import { ALERT_KINDS, createAlertInput, updateAlertInput } from "@/lib/alerts/kinds";
import { alertHistoryQuery } from "@/lib/alerts/history";
import type { Endpoint } from "./endpoint";

const alertRuleShape = z
  .object({
    id: z.uuid(),
    kind: z.enum(ALERT_KINDS),
    kindLabel: z.string(),
    automationId: z.uuid().nullable(),
    automationName: z.string().nullable(),
    channel: z.discriminatedUnion("type", [
      z.object({ type: z.literal("email") }),
      z.object({
        type: z.literal("slack"),
        credentialId: z.uuid(),
        credentialName: z.string().nullable(),
        channel: z.string().nullable(),
      }),
      z.object({
        type: z.literal("webhook"),
        url: z.string().meta({ description: "The address; a viewer sees it only up to its host." }),
        secretSet: z
          .literal(true)
          .meta({ description: "The signing secret is write-only: never sent back." }),
      }),
    ]),
    params: z.looseObject({}),
    enabled: z.boolean(),
    sentence: z.string(),
    createdBy: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "AlertRule" });

const alertHistoryShape = z.object({
  id: z.uuid(),
  ruleId: z.uuid().nullable(),
  automationId: z.uuid().nullable(),
  automationName: z.string(),
  kind: z.enum(ALERT_KINDS),
  message: z.string(),
  count: z.int(),
  runsUrl: z.string(),
  channel: z.string(),
  status: z.enum(["pending", "sent", "failed"]),
  error: z.string().nullable(),
  attempts: z.int(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
});

const ALERT = "/api/v1/alerts/{id}";

/** Alerts. */
export const alertsEndpoints: readonly Endpoint[] = [
  {
    method: "GET",
    path: "/api/v1/alerts",
    summary: "List the shop's alert rules",
    description:
      "Every rule: what it watches, about which automation, and where it sends. A webhook's secret is never sent back.",
    tag: "Alerts",
    role: "viewer",
    ok: {
      status: 200,
      description: "Every alert rule of the shop.",
      schema: z.object({ items: z.array(alertRuleShape), nextCursor: z.null() }),
    },
  },
  {
    method: "POST",
    path: "/api/v1/alerts",
    summary: "Add an alert rule",
    description:
      "Kinds: `failed_runs` (a digest per automation, at most one per 15 minutes), `silence` (`params.hours`), `storm` (`params.maxRunsPerHour`, 5× the usual busiest hour, or a cap), `overdue_waits` (`params.minutes`), `approval_overdue`. `automationId` null or left out: every automation of the shop. Channels: `{type: email}` (the shop's staff), `{type: slack, credentialId, channel?}`, `{type: webhook, url, secret}` (Standard Webhooks signature; the secret is write-only).",
    tag: "Alerts",
    role: "admin",
    body: createAlertInput,
    example: { kind: "failed_runs", automationId: null, channel: { type: "email" } },
    ok: { status: 201, description: "The rule (never a secret).", schema: alertRuleShape },
  },
  {
    method: "GET",
    path: ALERT,
    summary: "Read one alert rule",
    tag: "Alerts",
    role: "viewer",
    ok: { status: 200, description: "The rule.", schema: alertRuleShape },
  },
  {
    method: "PUT",
    path: ALERT,
    summary: "Change an alert rule",
    description: "Fields left out keep their value; a webhook channel without `secret` keeps the stored one.",
    tag: "Alerts",
    role: "admin",
    body: updateAlertInput,
    example: { enabled: false },
    ok: { status: 200, description: "The rule (never a secret).", schema: alertRuleShape },
  },
  {
    method: "DELETE",
    path: ALERT,
    summary: "Delete an alert rule",
    description: "Its alerts stay in the history.",
    tag: "Alerts",
    role: "admin",
    ok: { status: 200, description: "`{ id, deleted: true }`." },
  },
  {
    method: "POST",
    path: `${ALERT}/test`,
    summary: "Send a test alert",
    description: "One alert through the rule's channel now, kept in the history like any other.",
    tag: "Alerts",
    role: "admin",
    ok: { status: 202, description: "`{ alertId }`: the history row that will be sent." },
  },
  {
    method: "GET",
    path: "/api/v1/alerts/history",
    summary: "List the alerts sent",
    description:
      "Newest first, keyset-paginated: each alert's automation, sentence, count, runs link, channel and whether it was sent.",
    tag: "Alerts",
    role: "viewer",
    query: alertHistoryQuery,
    ok: {
      status: 200,
      description: "A page of alerts.",
      schema: z.object({ items: z.array(alertHistoryShape), nextCursor: z.string().nullable() }),
    },
  },
];
