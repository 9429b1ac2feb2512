import type { RunEvent } from "@/lib/db/schema";
import type { Domain } from "@/lib/domains/domains";

/*
 * What a step reads of its run: the record it is about and the event that started it, in the
 * shapes conditions, tokens, actions and code steps see. The engine loads them (`engine/entity.ts`)
 * and the nodes read them; neither needs the other for the types.
 */

/** The record a run is about, as conditions, tokens and actions see it. */
export interface RunEntity {
  domain: Domain;
  id: string;
  /** The domain's fields plus `id` and `tags`. */
  data: Record<string, unknown>;
  /**
   * The customer an order references (its fields plus `id` and `tags`), loaded with it for
   * `{entity.customer.…}`; null when the order names none or it no longer exists. Absent for
   * domains that bring no customer (`lib/domains/related.ts`).
   */
  customer?: Record<string, unknown> | null;
}

/** The customer a run reaches: its record when that is a customer, else the record's customer. */
export function runCustomerId(entity: RunEntity | null): string | null {
  if (!entity) return null;
  if (entity.domain === "customer") return entity.id;
  const id = entity.customer?.id;
  return typeof id === "string" ? id : null;
}

/**
 * The record as `{entity.…}` reads it: its fields, and an order's customer under `customer`
 * (`{entity.customer.name}`; empty when the order has none).
 */
export function tokenRecord(entity: RunEntity | null): Record<string, unknown> | null {
  if (!entity) return null;
  return entity.customer === undefined ? entity.data : { ...entity.data, customer: entity.customer };
}

/**
 * The event as tokens and code steps read it: its fields, `at` (when it happened; a code step's
 * only clock), and for a run a later step started, `then`, `step` and `due` at the top
 * (`{event.then.email}`, SPEC §2), as well as under `payload` where they always were.
 */
export function eventView(event: RunEvent): Record<string, unknown> {
  const later =
    event.type === "later"
      ? { then: event.payload.then ?? {}, step: event.payload.step, due: event.payload.due }
      : {};
  return { ...event, at: event.occurredAt, ...later };
}
