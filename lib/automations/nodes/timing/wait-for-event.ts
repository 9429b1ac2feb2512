import { z } from "zod";
import { integer, paramsObject, text } from "../params";
import type { NodeDefinition, TriggerDomain } from "../types";
import { eventLabel } from "./event-types";
import { formatInZone } from "@/lib/time/cron";
import { isDomain } from "@/lib/domains/domains";
import { handleLabel } from "../catalog";

/**
 * `auto.control.wait_for_event` (SPEC §2 "Wait for an event"): the run waits until an event of
 * type `event` that matches arrives, or until `timeoutHours` pass; then it follows `received` or
 * `timed_out`. `match` says which event is this run's:
 *
 * - `same_record`: the event is about the run's record (an order's `order.fulfilled`);
 * - `field`: the event's field at `path` equals `equals`, a template rendered when the run pauses
 *   ("payload.body.email" = "{entity.email}": the customer's reply, told by a webhook). Compared
 *   without surrounding spaces and without regard to case, as emails are.
 *
 * The engine persists it as a wait of kind `event` with its match key (`matchKeyFor`); a recorded
 * event of the shop finds the waits it wakes by that key (`engine/event-waits.ts`).
 */

export const WAIT_FOR_EVENT_OUTS = ["received", "timed_out"] as const;

/** `order.fulfilled`, `webhook.received`: a domain, a dot and a verb, as events are typed. */
const EVENT_TYPE = /^[a-z]+\.[a-z_]+$/;
/** `payload.body.email`, `entityId`: dotted names from the event's top. */
const EVENT_PATH = /^[A-Za-z_$][\w$-]*(\.[\w$-]+)*$/;

export const eventMatch = z.discriminatedUnion(
  "kind",
  [
    z.strictObject({ kind: z.literal("same_record") }),
    z.strictObject({
      kind: z.literal("field"),
      path: text()
        .trim()
        .min(1, "is required")
        .max(200, "is longer than 200 characters")
        .regex(EVENT_PATH, "must be a field of the event, such as payload.body.email"),
      equals: text().trim().min(1, "is required").max(500, "is longer than 500 characters"),
    }),
  ],
  { error: "must say which event is this run's: the same record, or a field equal to a value" },
);
export type EventMatch = z.infer<typeof eventMatch>;

export const waitForEventParams = paramsObject({
  event: text()
    .trim()
    .regex(EVENT_TYPE, "must be an event type such as order.fulfilled: a kind of record, a dot and a verb"),
  match: eventMatch.default({ kind: "same_record" }),
  timeoutHours: integer(1, 720).default(72),
});
export type WaitForEventParams = z.infer<typeof waitForEventParams>;

/** "3 days", "36 hours": a timeout as a merchant says it. */
export function describeHours(hours: number): string {
  if (hours % 24 === 0) return hours === 24 ? "1 day" : `${hours / 24} days`;
  return hours === 1 ? "1 hour" : `${hours} hours`;
}

/** The event as one string a wait's key is compared with: the same for the wait and the event. */
export function normaliseMatchValue(value: string): string {
  return value.trim().toLowerCase();
}

/**
 * The key a wait is found by: `r:<domain>:<id>` for the run's record, `f:<path>=<value>` for a
 * field. Recording an event computes the same keys from the event (`engine/event-waits.ts`, in SQL
 * that must agree with this).
 */
export function matchKeyFor(
  match: EventMatch,
  facts: { record: { domain: string; id: string } | null; renderedValue?: string },
): string | null {
  if (match.kind === "same_record")
    return facts.record ? `r:${facts.record.domain}:${facts.record.id}` : null;
  const value = normaliseMatchValue(facts.renderedValue ?? "");
  return value === "" ? null : `f:${match.path}=${value}`;
}

/** A wait for an event about the run's record, under a trigger whose runs have none. */
function sameRecordIssues(params: WaitForEventParams, domain: TriggerDomain): string[] {
  if (isDomain(domain) || params.match.kind !== "same_record") return [];
  const none =
    domain === "webhook"
      ? "a webhook run has none"
      : domain === "schedule"
        ? "a schedule without an audience has none"
        : domain === "later"
          ? "a run started by a later step has none"
          : "runs of this trigger have none";
  return [
    `This wait listens for an event about the run's record, but ${none}: match a field of the event instead (“A field of the event equals a value”).`,
  ];
}

export const waitForEvent = {
  type: "auto.control.wait_for_event",
  category: "wait",
  label: "Wait for event",
  description:
    "Pauses the flow until something happens — the order is fulfilled, the customer replies (an inbound webhook) — or until the time limit passes. Then the flow follows 'Received' or 'Timed out', and the steps after it can read the event that arrived.",
  params: waitForEventParams,
  defaultParams: () => ({
    event: "order.fulfilled",
    match: { kind: "same_record" as const },
    timeoutHours: 72,
  }),
  handles: { in: true, out: WAIT_FOR_EVENT_OUTS },
  templated: ["match"],
  outputs: () => [
    { path: "event.type", label: "the event's type" },
    { path: "event.entityId", label: "the id of the record the event is about" },
    { path: "event.occurredAt", label: "when the event happened" },
    { path: "event.payload.*", label: "the event's details" },
  ],
  // "Wait up to 3 days for 'Order fulfilled'": the event by its name, not its type.
  summarise: ({ event, match, timeoutHours }) =>
    `Wait up to ${describeHours(timeoutHours)} for '${eventLabel(event)}'${match.kind === "field" ? ` where ${match.path} is ${match.equals}` : ""}`,
  summariseDraft: ({ event }) =>
    typeof event === "string" && EVENT_TYPE.test(event.trim())
      ? undefined
      : "Wait for event (choose the event)",
  domainIssues: sameRecordIssues,
  // A dry run cannot know whether the event will come: as with an approval, it follows 'Timed out'.
  describeDryRunWait: ({ event, match, timeoutHours }, resumeAt, timeZone) => {
    const which = match.kind === "same_record" ? " about the same record" : ` where ${match.path} matches`;
    return `Would wait up to ${describeHours(timeoutHours)} for '${eventLabel(event)}'${which}, timing out ${formatInZone(resumeAt, timeZone)}, then follow '${handleLabel("timed_out")}'.`;
  },
} satisfies NodeDefinition<typeof waitForEventParams>;
