import { eventLabel } from "./event-types";
import { describeHours } from "./wait-for-event";

// Pure and browser-safe: what a wait for an event says on the run page and the Waiting list, from
// its step's output (the step's run-page sentences, beside its definition).

export const EVENT_WAIT_NODE_TYPE = "auto.control.wait_for_event";

/**
 * A wait for an event as the run history tells it. The engine records on its step, while it
 * waits, `{ resumeAt, waitingFor, match, timeoutHours }`; when the event came, the step is
 * completed with `event: { id, type, domain, entityId, payload, occurredAt }` merged in; when it
 * timed out (or someone chose "Resume now"), without `event`.
 */
export interface EventWaitInfo {
  state: "waiting" | "received" | "timed_out";
  /** "Order fulfilled": the event waited for, by name. */
  eventName: string;
  /** " where payload.body.email is ada@example.com" for a field match; "" for the same record. */
  matchText: string;
  /** "3 days", or null when the output does not say. */
  limit: string | null;
  /** When it times out (ISO), while it waits. */
  timesOutAt: string | null;
  /** When the event that woke it happened (ISO), once received. */
  receivedAt: string | null;
  /** Who chose "Resume now" before the event came, when someone did. */
  resumedNowBy: string | null;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/** The match as words: nothing for the same record, "where <path> is <value>" for a field. */
export function matchWords(match: unknown): string {
  const m = record(match);
  if (m.kind !== "field" || typeof m.path !== "string") return "";
  const value = typeof m.value === "string" ? m.value : typeof m.equals === "string" ? m.equals : "";
  return value ? ` where ${m.path} is ${value}` : ` where ${m.path} matches`;
}

/**
 * What a step of a wait for an event says, or null for a step that never waited (failed before
 * it could, or skipped).
 */
export function eventWaitFromStep(step: { status: string; output: unknown }): EventWaitInfo | null {
  const output = record(step.output);
  const event = record(output.event);
  const waitingFor =
    typeof output.waitingFor === "string"
      ? output.waitingFor
      : typeof event.type === "string"
        ? event.type
        : "";
  if (!waitingFor) return null;
  const state =
    step.status === "waiting"
      ? "waiting"
      : typeof event.type === "string"
        ? "received"
        : step.status === "success"
          ? "timed_out"
          : null;
  if (state === null) return null;
  const hours = typeof output.timeoutHours === "number" ? output.timeoutHours : null;
  return {
    state,
    eventName: eventLabel(waitingFor),
    matchText: matchWords(output.match),
    limit: hours !== null && hours > 0 ? describeHours(hours) : null,
    timesOutAt: state === "waiting" && typeof output.resumeAt === "string" ? output.resumeAt : null,
    receivedAt: state === "received" && typeof event.occurredAt === "string" ? event.occurredAt : null,
    resumedNowBy:
      state === "timed_out" && typeof output.resumedNowBy === "string" ? output.resumedNowBy : null,
  };
}

/** "Timed out: Order fulfilled did not come within 3 days." */
export function timedOutText(info: Pick<EventWaitInfo, "eventName" | "limit" | "resumedNowBy">): string {
  if (info.resumedNowBy)
    return `Timed out: ${info.resumedNowBy} chose Resume now before ${info.eventName} came.`;
  return `Timed out: ${info.eventName} did not come${info.limit ? ` within ${info.limit}` : " in time"}.`;
}

/**
 * What a waiting run waits for when its earliest pending wait is a wait for an event (the run
 * page's header): that step's words, or null.
 */
export function waitingForEvent(run: {
  nextWait: { kind: string } | null;
  steps: readonly { nodeType: string; status: string; output: unknown }[];
}): EventWaitInfo | null {
  if (run.nextWait?.kind !== "event") return null;
  for (const step of run.steps) {
    if (step.nodeType !== EVENT_WAIT_NODE_TYPE || step.status !== "waiting") continue;
    const info = eventWaitFromStep(step);
    if (info) return info;
  }
  return null;
}

/**
 * A pending wait for an event in the Waiting list: "Waiting for Order fulfilled on Order #1022",
 * or, once its event came and the run is about to carry on, "Received Order fulfilled". Null for
 * another kind of wait.
 */
export function waitingSentence(wait: {
  kind: string;
  waitingFor: string | null;
  received: { type: string } | null;
  entityLabel: string | null;
}): string | null {
  if (wait.kind !== "event" || !wait.waitingFor) return null;
  if (wait.received) return `Received ${eventLabel(wait.received.type)}`;
  // The record's name, without the total and email the list shows in its own column.
  const record = wait.entityLabel?.split(" · ")[0];
  return `Waiting for ${eventLabel(wait.waitingFor)}${record ? ` on ${record}` : ""}`;
}
