import { and, arrayOverlaps, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { automationRuns, automations, type RunEvent } from "@/lib/db/schema";
import type { RecordedEvent } from "@/lib/events/record";
import { enqueueJobs } from "@/lib/jobs";
import type { Graph } from "./graph/schema";
import { effectiveDomain, registry, triggerMatches } from "./nodes/registry";

/** The job key of a run's first-leg job: lets the reaper tell whether that job still exists. */
export const runJobKey = (runId: string) => `run:${runId}`;

/** An event aimed at one automation's trigger node (an inbound webhook), not at every listener. */
export interface EventTarget {
  automationId: string;
  nodeId: string;
}

export function toRunEvent(event: RecordedEvent): RunEvent {
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

/** The first trigger node of `graph` that listens to this event and whose filters accept it. */
function matchingTrigger(graph: Graph, event: RecordedEvent, target?: EventTarget) {
  return graph.nodes.find((node) => {
    if (target && node.id !== target.nodeId) return false;
    const definition = registry.get(node.type);
    if (!definition || definition.category !== "trigger" || definition.event !== event.type) return false;
    return triggerMatches(node.type, node.params, { type: event.type, payload: event.payload });
  });
}

/**
 * Starts one run per (active automation listening to the event, event) inside the transaction that
 * recorded the event, with its `automation_execute` job: an event and its runs commit together.
 * Idempotent: a run is unique per (automation, event id). Returns the ids of the runs created.
 */
export async function startRuns(
  tx: DbOrTx,
  tenantId: string,
  events: RecordedEvent[],
  target?: EventTarget,
): Promise<string[]> {
  const fresh = events.filter((e) => e.inserted);
  if (fresh.length === 0) return [];
  const listeners = await tx
    .select({ id: automations.id, version: automations.version, graph: automations.activeGraph })
    .from(automations)
    .where(
      and(
        eq(automations.tenantId, tenantId),
        eq(automations.status, "active"),
        target ? eq(automations.id, target.automationId) : undefined,
        arrayOverlaps(automations.triggerEvents, [...new Set(fresh.map((e) => e.type))]),
      ),
    );
  const runs: (typeof automationRuns.$inferInsert)[] = [];
  for (const event of fresh) {
    for (const automation of listeners) {
      if (!automation.graph) continue;
      const trigger = matchingTrigger(automation.graph, event, target);
      if (!trigger) continue;
      const runEvent = toRunEvent(event);
      const domain = effectiveDomain(trigger) ?? event.domain;
      runs.push({
        tenantId,
        automationId: automation.id,
        automationVersion: automation.version,
        eventId: event.id,
        triggerNodeId: trigger.id,
        event: runEvent,
        domain,
        entityId: event.entityId,
      });
    }
  }
  if (runs.length === 0) return [];
  const created = await tx
    .insert(automationRuns)
    .values(runs)
    .onConflictDoNothing()
    .returning({ id: automationRuns.id });
  await enqueueJobs(
    tx,
    created.map((run) => ({
      task: "automation_execute" as const,
      payload: { runId: run.id },
      jobKey: runJobKey(run.id),
    })),
  );
  return created.map((r) => r.id);
}

/** Runs created for an event, for callers that report them (the webhook endpoint). */
export async function runsForEvent(tx: DbOrTx, tenantId: string, eventIds: string[]) {
  if (eventIds.length === 0) return [];
  return tx
    .select({
      id: automationRuns.id,
      automationId: automationRuns.automationId,
      status: automationRuns.status,
    })
    .from(automationRuns)
    .where(and(eq(automationRuns.tenantId, tenantId), inArray(automationRuns.eventId, eventIds)));
}
