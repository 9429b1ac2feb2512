import crypto from "node:crypto";
import { startRuns, type EventTarget } from "@/lib/automations/engine/start";
import type { DbOrTx } from "@/lib/db/client";
import { events } from "@/lib/db/schema";
import type { NewEvent, RecordedEvent } from "./types";

/**
 * Writes event rows inside the caller's transaction and starts the runs of every active
 * automation they trigger, so an entity change, its events and their runs (with their jobs)
 * commit or roll back together. A `target` aims the events at one automation's trigger only.
 */
export async function recordEvents(
  tx: DbOrTx,
  tenantId: string,
  batch: NewEvent[],
  target?: EventTarget,
): Promise<RecordedEvent[]> {
  if (batch.length === 0) return [];
  const rows = batch.map((e) => ({
    tenantId,
    id: e.id ?? `evt_${crypto.randomUUID()}`,
    type: e.type,
    domain: e.domain,
    entityId: e.entityId,
    payload: e.payload ?? {},
  }));
  const inserted = await tx
    .insert(events)
    .values(rows)
    .onConflictDoNothing()
    .returning({ id: events.id, createdAt: events.createdAt });
  const insertedAt = new Map(inserted.map((r) => [r.id, r.createdAt]));
  const now = new Date();
  const recorded = rows.map((r) => ({
    id: r.id,
    type: r.type,
    domain: r.domain,
    entityId: r.entityId,
    payload: r.payload,
    createdAt: insertedAt.get(r.id) ?? now,
    inserted: insertedAt.has(r.id),
  }));
  await startRuns(tx, tenantId, recorded, target);
  return recorded;
}
