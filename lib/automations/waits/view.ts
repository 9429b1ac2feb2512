import type { WaitRow } from "@/lib/automations/store/waits";
import type { WaitFate } from "./fate-text";

/** A wait as the API shows it (`POST /api/v1/waits/{id}/cancel` and the like, and in a run's detail). */
export interface WaitView {
  id: string;
  kind: string;
  status: string;
  runId: string;
  automationId: string;
  nodeId: string;
  nodeType: string;
  resumeAt: string;
  reason: string | null;
  entity: { domain: string; id: string | null };
  /** For a later step: its key, step name and what it hands back. */
  key: string | null;
  step: string | null;
  then: unknown;
  /** A wait for an event: the event type it waits for (`order.fulfilled`); null for other kinds. */
  waitingFor: string | null;
  /** A wait for an event that came: its type and when it happened; null until then and for other kinds. */
  received: { type: string; occurredAt: string } | null;
  createdAt: string;
  resolvedAt: string | null;
}

export function waitView(w: WaitRow): WaitView {
  return {
    id: w.id,
    kind: w.kind,
    status: w.status,
    runId: w.runId,
    automationId: w.automationId,
    nodeId: w.nodeId,
    nodeType: w.nodeType,
    resumeAt: w.resumeAt.toISOString(),
    reason: w.reason,
    entity: { domain: w.event.domain, id: w.event.entityId },
    key: w.key,
    step: w.kind === "later" ? String(w.event.payload.step ?? "") : null,
    then: w.kind === "later" ? (w.event.payload.then ?? null) : null,
    waitingFor: w.kind === "event" ? w.matchEvent : null,
    received: w.wokenEvent ? { type: w.wokenEvent.type, occurredAt: w.wokenEvent.occurredAt } : null,
    createdAt: w.createdAt.toISOString(),
    resolvedAt: w.resolvedAt?.toISOString() ?? null,
  };
}

/** A wait in the Waiting list. */
export interface WaitingItem extends WaitView {
  /** The automation's current name (null when it was deleted since). */
  automationName: string | null;
  /** A pending wait: what it will do when it wakes, as things stand (null for a later step, or dropped). */
  fate: WaitFate | null;
  /** The step it waits at as drawn in the run's version ("Wait 2 days"). */
  label: string;
  /** The record by what merchants call it ("Order #1022 · €65.00 · …"), null for none. */
  entityLabel: string | null;
}

/** A page of the Waiting list (`GET /api/v1/waiting`, `GET /api/v1/automations/{id}/waiting`). */
export interface WaitingPage {
  /** Pending waits, soonest first. */
  items: WaitingItem[];
  /** The cursor of the next page; null on the last. */
  nextCursor: string | null;
  /** The 20 latest waits dropped (cancelled or failed), on the first page only; empty on the others. */
  dropped: WaitingItem[];
}
