import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import { getDb, type DbOrTx, type Tx } from "@/lib/db/client";
import { entities, entityNotes } from "@/lib/db/schema";
import { AppError, notFound, parseOrThrow } from "@/lib/errors";
import { recordEvents } from "@/lib/automations/engine/start/events";
import type { NewEvent, RecordedEvent } from "@/lib/events/types";
import { DOMAIN_LABELS, domainSchemas, isDomain, STATUS_EVENTS, type Domain } from "@/lib/domains/domains";

const tagList = z
  .array(z.string().trim().min(1, "a tag cannot be empty").max(100))
  .max(250)
  .transform((tags) => [...new Set(tags)]);

function buildPutSchema(domain: Domain) {
  return domainSchemas[domain].extend({
    tags: tagList.optional(),
    notes: z.array(z.string().trim().min(1).max(5000)).max(100).optional(),
  });
}

const putSchemas = new Map<Domain, ReturnType<typeof buildPutSchema>>();

/**
 * The PUT body: the domain's fields, plus the tags to set and notes to add. Built once per domain,
 * so the OpenAPI contract (lib/api/contract/) documents the very object requests are parsed with.
 */
export function putSchema(domain: Domain) {
  let schema = putSchemas.get(domain);
  if (!schema) putSchemas.set(domain, (schema = buildPutSchema(domain)));
  return schema;
}

export interface EntityNote {
  id: string;
  body: string;
  author: string;
  createdAt: string;
}

export interface EntityView {
  id: string;
  domain: Domain;
  [field: string]: unknown;
  tags: string[];
  notes: EntityNote[];
  /** When Tillflow first stored the record; a domain's own `createdAt` (an order's) is a field. */
  recordedAt: string;
  /** When the record last changed in Tillflow. */
  changedAt: string;
}

export function parseDomain(value: string): Domain {
  if (isDomain(value)) return value;
  throw new AppError(
    404,
    "not_found",
    `There is no '${value}' domain. Use one of: ${Object.keys(domainSchemas).join(", ")}.`,
  );
}

const entityId = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9._:-]+$/, "use letters, digits, dots, dashes, colons or underscores");

export function parseEntityId(value: string): string {
  return parseOrThrow(entityId, value, "The id is invalid");
}

function notFoundEntity(domain: Domain, id: string) {
  return notFound(`The ${DOMAIN_LABELS[domain].one} '${id}'`);
}

function statusOf(data: Record<string, unknown>): string | null {
  return typeof data.status === "string" ? data.status : null;
}

/** The events an upsert implies (SPEC §4): created, status_changed and the named status event. */
function impliedEvents(
  domain: Domain,
  id: string,
  before: Record<string, unknown> | null,
  after: Record<string, unknown>,
  options: { announceStatus?: boolean } = {},
): NewEvent[] {
  const created: NewEvent = {
    type: `${domain}.created`,
    domain,
    entityId: id,
    payload: { status: statusOf(after) },
  };
  // A store's new record announces a status only where it has an event of its own: an order that
  // arrives paid is "order paid" (as the store's own webhook says), one that arrives pending is
  // only "order created", as through PUT.
  const announced = options.announceStatus && STATUS_EVENTS[domain]?.[statusOf(after) ?? ""] !== undefined;
  if (!before && !announced) return [created];
  const events: NewEvent[] = before ? [] : [created];
  const from = before ? statusOf(before) : null;
  const to = statusOf(after);
  if (from !== to && to) {
    events.push({ type: `${domain}.status_changed`, domain, entityId: id, payload: { from, to } });
    const named = STATUS_EVENTS[domain]?.[to];
    if (named) events.push({ type: named, domain, entityId: id, payload: { from, to } });
  }
  if (domain === "product" && typeof before?.inventory === "number" && typeof after.inventory === "number") {
    // Stock going down is what a low-stock trigger watches; its threshold decides whether it fires.
    if (after.inventory < before.inventory) {
      events.push({
        type: "product.low_stock",
        domain,
        entityId: id,
        payload: { from: before.inventory, to: after.inventory },
      });
    }
  }
  return events;
}

export interface UpsertResult {
  entity: EntityView;
  created: boolean;
  events: RecordedEvent[];
}

/**
 * Creates or replaces an entity's fields, sets its tags, appends new notes, and records the
 * events the change implies, all in one transaction.
 */
export async function upsertEntity(
  tenantId: string,
  domainName: string,
  rawId: string,
  body: unknown,
  author: string,
): Promise<UpsertResult> {
  const domain = parseDomain(domainName);
  const id = parseEntityId(rawId);
  const input = parseOrThrow(putSchema(domain), body, `The ${DOMAIN_LABELS[domain].one} is invalid`);
  return getDb().transaction(async (tx) => {
    const existing = await lockEntity(tx, tenantId, domain, id);
    return writeEntity(tx, { tenantId, domain, id, existing, input, author });
  });
}

export type SourceUpsert =
  { stale: true; heldSince: Date } | ({ stale: false } & Omit<UpsertResult, "entity">);

/**
 * A record as a connected store sent it (lib/connections/process.ts), in the caller's transaction:
 * validated as a PUT body (a bad one throws the same 422), then — unless the record already holds
 * a newer version by the source's clock (`stale`, nothing written) — written through the same path
 * as `PUT /api/v1/entities`, so the same events fire. Tags the store sends are added to the ones
 * the record has here, so a tag a flow added stays.
 */
export async function upsertFromSource(
  tx: Tx,
  tenantId: string,
  record: {
    domain: Domain;
    id: string;
    data: Record<string, unknown>;
    tags: string[];
    sourceUpdatedAt: Date | null;
    author: string;
  },
  options: SourceOptions = {},
): Promise<SourceUpsert> {
  const { domain } = record;
  const id = parseEntityId(record.id);
  const lead = `The ${DOMAIN_LABELS[domain].one} is invalid`;
  // Parsed before the lock when it replaces the record (a bad one is refused before anything).
  const replaced = options.merge ? null : parseOrThrow(putSchema(domain), record.data, lead);
  const existing = await lockEntity(tx, tenantId, domain, id);
  const held = existing?.sourceUpdatedAt;
  if (held && record.sourceUpdatedAt && record.sourceUpdatedAt < held)
    return { stale: true, heldSince: held };
  const parsed =
    replaced ??
    parseOrThrow(
      putSchema(domain),
      // What another record said of this one (an order's customer) over what it holds; its own
      // `attributes` are kept once it has them (the two together could pass 64 KB).
      existing
        ? {
            ...existing.data,
            ...record.data,
            ...(existing.data.attributes !== undefined ? { attributes: existing.data.attributes } : {}),
          }
        : record.data,
      lead,
    );
  const input = { ...parsed, tags: [...new Set([...(existing?.tags ?? []), ...record.tags])].slice(0, 250) };
  // The store's worker needs no view of the record back: one read fewer a delivery.
  const result = await writeRecord(tx, {
    tenantId,
    domain,
    id,
    existing,
    input,
    author: record.author,
    source: { updatedAt: record.sourceUpdatedAt, startRuns: options.startRuns },
  });
  return { stale: false, ...result };
}

export interface SourceOptions {
  /**
   * Merge the fields sent over the record's (an order's embedded customer, which knows its name and
   * email but not its order count), instead of replacing them as a PUT does.
   */
  merge?: boolean;
  /** False for a test delivery: its events are recorded and start no run. */
  startRuns?: boolean;
}

async function lockEntity(tx: Tx, tenantId: string, domain: Domain, id: string) {
  const [row] = await tx
    .select({ data: entities.data, tags: entities.tags, sourceUpdatedAt: entities.sourceUpdatedAt })
    .from(entities)
    .where(and(eq(entities.tenantId, tenantId), eq(entities.domain, domain), eq(entities.id, id)))
    .for("update");
  return row ?? null;
}

type Write = Parameters<typeof writeRecord>[1];

/** Writes a parsed PUT body over the locked `existing` row (or creates it), and reads it back. */
async function writeEntity(tx: Tx, write: Write): Promise<UpsertResult> {
  const result = await writeRecord(tx, write);
  const entity = await loadEntity(tx, write.tenantId, write.domain, write.id);
  return { entity: entity!, ...result };
}

/** Writes a parsed PUT body over the locked `existing` row (or creates it), with notes and events. */
async function writeRecord(
  tx: Tx,
  write: {
    tenantId: string;
    domain: Domain;
    id: string;
    existing: { data: Record<string, unknown>; tags: string[] } | null;
    input: { tags?: string[]; notes?: string[] } & Record<string, unknown>;
    author: string;
    /** From a connected store: its clock's `updated_at`, and the record's status announced on creation. */
    source?: { updatedAt: Date | null; startRuns?: boolean };
  },
): Promise<Omit<UpsertResult, "entity">> {
  const { tenantId, domain, id, existing, author, source } = write;
  const { tags, notes, ...data } = write.input;
  const values = {
    data,
    status: statusOf(data),
    email: typeof data.email === "string" ? data.email.toLowerCase() : null,
    tags: tags ?? existing?.tags ?? [],
    updatedAt: new Date(),
    ...(source?.updatedAt ? { sourceUpdatedAt: source.updatedAt } : {}),
  };
  if (existing) {
    await tx
      .update(entities)
      .set(values)
      .where(and(eq(entities.tenantId, tenantId), eq(entities.domain, domain), eq(entities.id, id)));
  } else {
    const inserted = await tx
      .insert(entities)
      .values({ tenantId, domain, id, ...values })
      .onConflictDoNothing()
      .returning({ id: entities.id });
    // A concurrent PUT created it between our read and our insert: let the client retry.
    if (inserted.length === 0) {
      throw new AppError(
        409,
        "conflict",
        "This record was created at the same moment by another request; retry.",
      );
    }
  }
  if (notes?.length) await addNotes(tx, tenantId, domain, id, notes, author, { skipExisting: true });
  // A store's new record announces its status too: an order that arrives paid fires "order paid"
  // flows once, as the store's own "order paid" webhook would have (its later copy changes nothing).
  const implied = impliedEvents(domain, id, existing?.data ?? null, data, {
    announceStatus: source !== undefined,
  });
  const events = await recordEvents(tx, tenantId, implied, undefined, { startRuns: source?.startRuns });
  return { created: !existing, events };
}

/** Adds notes; with `skipExisting`, a note whose text is already on the entity is not added twice (idempotent PUT). */
export async function addNotes(
  tx: DbOrTx,
  tenantId: string,
  domain: Domain,
  id: string,
  bodies: string[],
  author: string,
  options: { skipExisting?: boolean } = {},
): Promise<void> {
  let fresh = bodies;
  if (options.skipExisting) {
    const existing = await tx
      .select({ body: entityNotes.body })
      .from(entityNotes)
      .where(
        and(eq(entityNotes.tenantId, tenantId), eq(entityNotes.domain, domain), eq(entityNotes.entityId, id)),
      );
    const seen = new Set(existing.map((n) => n.body));
    fresh = bodies.filter((b) => !seen.has(b));
  }
  if (fresh.length === 0) return;
  await tx
    .insert(entityNotes)
    .values(fresh.map((body) => ({ tenantId, domain, entityId: id, body, author })));
}

export async function loadEntity(
  tx: DbOrTx,
  tenantId: string,
  domain: Domain,
  id: string,
): Promise<EntityView | null> {
  const [row] = await tx
    .select()
    .from(entities)
    .where(and(eq(entities.tenantId, tenantId), eq(entities.domain, domain), eq(entities.id, id)));
  if (!row) return null;
  const notes = await tx
    .select({
      id: entityNotes.id,
      body: entityNotes.body,
      author: entityNotes.author,
      createdAt: entityNotes.createdAt,
    })
    .from(entityNotes)
    .where(
      and(eq(entityNotes.tenantId, tenantId), eq(entityNotes.domain, domain), eq(entityNotes.entityId, id)),
    )
    .orderBy(asc(entityNotes.createdAt));
  return {
    ...row.data,
    id: row.id,
    domain,
    tags: row.tags,
    notes: notes.map((n) => ({ ...n, createdAt: n.createdAt.toISOString() })),
    recordedAt: row.createdAt.toISOString(),
    changedAt: row.updatedAt.toISOString(),
  };
}

export async function getEntity(tenantId: string, domainName: string, rawId: string): Promise<EntityView> {
  const domain = parseDomain(domainName);
  const id = parseEntityId(rawId);
  const entity = await loadEntity(getDb(), tenantId, domain, id);
  if (!entity) throw notFoundEntity(domain, id);
  return entity;
}

export async function deleteEntity(
  tenantId: string,
  domainName: string,
  rawId: string,
  _author: string,
): Promise<void> {
  const domain = parseDomain(domainName);
  const id = parseEntityId(rawId);
  await getDb().transaction(async (tx) => {
    const deleted = await tx
      .delete(entities)
      .where(and(eq(entities.tenantId, tenantId), eq(entities.domain, domain), eq(entities.id, id)))
      .returning({ id: entities.id });
    if (deleted.length === 0) throw notFoundEntity(domain, id);
    await tx
      .delete(entityNotes)
      .where(
        and(eq(entityNotes.tenantId, tenantId), eq(entityNotes.domain, domain), eq(entityNotes.entityId, id)),
      );
    await recordEvents(tx, tenantId, [{ type: `${domain}.deleted`, domain, entityId: id }]);
  });
}

/** A PATCH body: some of the domain's fields (plus `tags`/`notes` as in a PUT); `null` removes a field. */
export const changesInput = z.record(z.string(), z.unknown(), "Send a JSON object of the fields to change.");

/**
 * Merges `body` into a stored record (PATCH): the merged record is validated against the domain's
 * schema (a field that does not belong, or a bad value, is a 422 naming it) and written through the
 * same path as a PUT, so a status change emits the same events. 404 when the record does not exist.
 */
export async function patchEntity(
  tenantId: string,
  domainName: string,
  rawId: string,
  body: unknown,
  author: string,
): Promise<UpsertResult> {
  const domain = parseDomain(domainName);
  return mergeIntoEntity(
    tenantId,
    domain,
    parseEntityId(rawId),
    parseOrThrow(changesInput, body, `The changes to the ${DOMAIN_LABELS[domain].one} are invalid`),
    author,
    `The ${DOMAIN_LABELS[domain].one} is invalid`,
  );
}

/** Sets only the status of an entity (the admin's "change status"): read, check and write in one transaction. */
export async function changeStatus(
  tenantId: string,
  domainName: string,
  rawId: string,
  status: string,
  author: string,
): Promise<UpsertResult> {
  const domain = parseDomain(domainName);
  return mergeIntoEntity(
    tenantId,
    domain,
    parseEntityId(rawId),
    { status },
    author,
    `That status is not valid for ${DOMAIN_LABELS[domain].one}s`,
  );
}

/** Locks the record, merges `changes` over its fields (null removes one), validates and writes it. */
async function mergeIntoEntity(
  tenantId: string,
  domain: Domain,
  id: string,
  changes: Record<string, unknown>,
  author: string,
  lead: string,
): Promise<UpsertResult> {
  return getDb().transaction(async (tx) => {
    const existing = await lockEntity(tx, tenantId, domain, id);
    if (!existing) throw notFoundEntity(domain, id);
    const merged: Record<string, unknown> = { ...existing.data, ...changes };
    for (const [field, value] of Object.entries(changes)) if (value === null) delete merged[field];
    const input = parseOrThrow(putSchema(domain), merged, lead);
    return writeEntity(tx, { tenantId, domain, id, existing, input, author });
  });
}
