import type { RunEvent } from "@/lib/db/schema";
import type { RecordedEvent } from "@/lib/events/types";
import type { Graph } from "@/lib/automations/graph/schema";
import { effectiveDomain, registry, triggerMatches } from "@/lib/automations/nodes/registry";
import type { Listener } from "../listeners";

/*
 * Planning a start (pure): which runs an event, a schedule's fire, a re-run or a later step asks
 * for, each a `PlannedRun`. Caps (caps.ts) may then mark some held; insert.ts writes them with
 * their jobs. Nothing here touches the database.
 */

/** An event aimed at one automation's trigger node (an inbound webhook), not at every listener. */
export interface EventTarget {
  automationId: string;
  nodeId: string;
}

/** The event a run keeps as it fired: what every leg of it reads as `{event.…}`. */
export function toRunEvent(event: Omit<RecordedEvent, "inserted">): RunEvent {
  const payload = event.payload;
  const status =
    typeof payload.to === "string" ? payload.to : typeof payload.status === "string" ? payload.status : null;
  return {
    id: event.id,
    type: event.type,
    domain: event.domain,
    entityId: event.entityId,
    entityStatus: status,
    payload,
    occurredAt: event.createdAt.toISOString(),
  };
}

/** `toRunEvent` without `occurredAt`, which the insert adds (the event may not be recorded yet). */
export function runEventOf(event: EventFacts): Omit<RunEvent, "occurredAt"> {
  const { occurredAt: _occurredAt, ...runEvent } = toRunEvent({ ...event, createdAt: new Date(0) });
  return runEvent;
}

/** The first trigger node of `graph` that listens to this event and whose filters accept it. */
function matchingTrigger(graph: Graph, event: EventFacts, target?: EventTarget) {
  return graph.nodes.find((node) => {
    if (target && node.id !== target.nodeId) return false;
    const definition = registry.get(node.type);
    if (!definition || definition.category !== "trigger" || definition.event !== event.type) return false;
    return triggerMatches(node.type, node.params, { type: event.type, payload: event.payload });
  });
}

/** What starting a run needs to know of its event (it may not be recorded yet). */
export type EventFacts = Pick<RecordedEvent, "id" | "type" | "domain" | "entityId" | "payload">;

/** A run to insert: its event is complete but for `occurredAt`, which the insert adds. */
export interface PlannedRun {
  automationId: string;
  automationVersion: number;
  eventId: string;
  triggerNodeId: string;
  event: Omit<RunEvent, "occurredAt">;
  domain: string;
  entityId: string | null;
  /** Why a cap holds it (caps/): it is inserted `held`, with no job. Null: it starts. */
  heldReason: string | null;
  /** A re-run: the run it repeats, and the node its first leg starts at (null: the trigger). */
  rerunOf?: string | null;
  rerunFrom?: string | null;
}

/** The runs `events` start: one per (listener whose trigger accepts the event, event). */
export function plannedRuns(events: EventFacts[], listeners: Listener[], target?: EventTarget): PlannedRun[] {
  const runs: PlannedRun[] = [];
  for (const event of events) {
    for (const automation of listeners) {
      if (target && automation.id !== target.automationId) continue;
      const trigger = matchingTrigger(automation.graph, event, target);
      if (!trigger) continue;
      runs.push({
        automationId: automation.id,
        automationVersion: automation.version,
        eventId: event.id,
        triggerNodeId: trigger.id,
        event: runEventOf(event),
        domain: effectiveDomain(trigger) ?? event.domain,
        entityId: event.entityId,
        heldReason: null,
      });
    }
  }
  return runs;
}
