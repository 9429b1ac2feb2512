import { createHash } from "node:crypto";
import type { RunEvent } from "@/lib/db/schema";
import type { RunEntity } from "@/lib/automations/nodes/context";

/*
 * Where a subject falls in a split: a stable position in [0, 1) from a hash of the automation,
 * the split step and the subject, so the same customer takes the same branch on every run of the
 * automation, on a rerun, in a dry run and in a backtest — and two splits (or two automations)
 * divide customers independently of each other. Server-only (node:crypto); the pure mapping from
 * a position to a branch is the step's own (`nodes/split/split.ts`).
 */

/** 2^52: a double holds every integer below it exactly, so the position is uniform on its grid. */
const GRID = 2 ** 52;

/** sha256(automation ␀ step ␀ subject), its first 52 bits as a fraction of 2^52: uniform in [0, 1). */
export function splitPosition(automationId: string, nodeId: string, subject: string): number {
  const digest = createHash("sha256").update(`${automationId}\u0000${nodeId}\u0000${subject}`).digest();
  const high = digest.readUInt32BE(0);
  const low = digest.readUInt32BE(4) >>> 12;
  return (high * 2 ** 20 + low) / GRID;
}

function idOf(value: unknown): string | null {
  if (typeof value === "string" && value.trim() !== "") return value.trim();
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return null;
}

/**
 * Whom a run is, for a split: by `record`, its record (`order:<id>`), else the event that started
 * it. By `customer`, the customer — the record itself when it is one, else the customer it names
 * (`customerId`), else its email (lower-cased), else the record as above.
 */
export function splitSubject(by: "customer" | "record", entity: RunEntity | null, event: RunEvent): string {
  const record = entity
    ? `${entity.domain}:${entity.id}`
    : event.entityId
      ? `${event.domain}:${event.entityId}`
      : `event:${event.id}`;
  if (by === "record") return record;
  if (entity?.domain === "customer") return `customer:${entity.id}`;
  const customerId = idOf(entity?.data.customerId) ?? idOf(entity?.customer?.id);
  if (customerId) return `customer:${customerId}`;
  const email =
    idOf(entity?.data.email) ??
    idOf(entity?.customer?.email) ??
    idOf(entity ? undefined : event.payload.email);
  return email ? `email:${email.toLowerCase()}` : record;
}
