import { and, desc, eq, inArray } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { actionDeliveries, automationRuns, automations, outboxEmails, type RunStatus } from "@/lib/db/schema";

/**
 * A record's Activity: the runs that were about it, what those runs did to it (tags, notes) and the
 * emails they wrote, newest first. Three reads, each by an index: the runs by
 * `automation_runs_entity_idx`, then their deliveries and emails by run id.
 */

/** Runs shown per record; older ones stay in run history (filter by this record). */
export const ACTIVITY_RUN_LIMIT = 50;

const RECORD_ACTIONS = ["auto.action.add_tag", "auto.action.remove_tag", "auto.action.add_note"] as const;

interface RunRef {
  runId: string;
  automationName: string | null;
}

export type ActivityItem = RunRef & { id: string; at: string } & (
    | { kind: "run"; status: RunStatus; eventType: string }
    | { kind: "tag"; tag: string; added: boolean }
    | { kind: "note"; body: string }
    | { kind: "email"; to: string; subject: string; status: string }
  );

function text(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

/** Activity of one record, newest first; another shop's record has none. */
export async function entityActivity(
  tenantId: string,
  domain: string,
  entityId: string,
  limit = ACTIVITY_RUN_LIMIT,
): Promise<ActivityItem[]> {
  const r = automationRuns;
  const runs = await getDb()
    .select({
      id: r.id,
      status: r.status,
      event: r.event,
      createdAt: r.createdAt,
      startedAt: r.startedAt,
      automationName: automations.name,
    })
    .from(r)
    .leftJoin(automations, eq(automations.id, r.automationId))
    .where(and(eq(r.tenantId, tenantId), eq(r.domain, domain), eq(r.entityId, entityId)))
    .orderBy(desc(r.createdAt), desc(r.id))
    .limit(limit);
  if (runs.length === 0) return [];
  const ids = runs.map((run) => run.id);
  const names = new Map(runs.map((run) => [run.id, run.automationName]));
  const [deliveries, emails] = await Promise.all([
    getDb()
      .select({
        id: actionDeliveries.id,
        runId: actionDeliveries.runId,
        nodeType: actionDeliveries.nodeType,
        request: actionDeliveries.request,
        response: actionDeliveries.response,
        at: actionDeliveries.completedAt,
        createdAt: actionDeliveries.createdAt,
      })
      .from(actionDeliveries)
      .where(
        and(
          eq(actionDeliveries.tenantId, tenantId),
          inArray(actionDeliveries.runId, ids),
          inArray(actionDeliveries.nodeType, [...RECORD_ACTIONS]),
          eq(actionDeliveries.status, "delivered"),
        ),
      ),
    getDb()
      .select({
        id: outboxEmails.id,
        runId: outboxEmails.runId,
        to: outboxEmails.to,
        subject: outboxEmails.subject,
        status: outboxEmails.status,
        createdAt: outboxEmails.createdAt,
      })
      .from(outboxEmails)
      .where(and(eq(outboxEmails.tenantId, tenantId), inArray(outboxEmails.runId, ids))),
  ]);

  const items: ActivityItem[] = runs.map((run) => ({
    kind: "run",
    id: run.id,
    runId: run.id,
    automationName: run.automationName,
    at: (run.startedAt ?? run.createdAt).toISOString(),
    status: run.status,
    eventType: run.event.type,
  }));
  for (const d of deliveries) {
    const ref = { id: d.id, runId: d.runId, automationName: names.get(d.runId) ?? null };
    const at = (d.at ?? d.createdAt).toISOString();
    if (d.nodeType === "auto.action.add_note") {
      const body = text(d.request.body);
      if (body) items.push({ ...ref, kind: "note", at, body });
      continue;
    }
    const tag = text(d.request.tag);
    // A tag the record already had (or had not) was left alone: nothing happened to the record.
    if (!tag || d.response?.changed === false) continue;
    items.push({ ...ref, kind: "tag", at, tag, added: d.nodeType === "auto.action.add_tag" });
  }
  for (const e of emails) {
    if (!e.runId) continue;
    items.push({
      kind: "email",
      id: e.id,
      runId: e.runId,
      automationName: names.get(e.runId) ?? null,
      at: e.createdAt.toISOString(),
      to: e.to,
      subject: e.subject,
      status: e.status,
    });
  }
  // Newest first; within one instant a run's effects come before the run that made them.
  return items.sort(
    (a, b) => b.at.localeCompare(a.at) || (a.kind === "run" ? 1 : 0) - (b.kind === "run" ? 1 : 0),
  );
}
