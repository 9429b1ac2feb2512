import crypto from "node:crypto";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { entities } from "@/lib/db/schema";
import { DOMAIN_LABELS, DOMAINS, ENTITYLESS_DOMAINS, isDomain } from "@/lib/domains/domains";
import { AppError, type Issue } from "@/lib/errors";

/*
 * An event as `POST /api/v1/events` takes it: its schema, the checks of an array, and the
 * sentences that refuse one. Recording it (and starting its runs) is the engine's:
 * automations/engine/start/api.ts.
 */

const ALL_DOMAINS = [...DOMAINS, ...ENTITYLESS_DOMAINS] as const;

/** The most events one `POST /api/v1/events` array may hold. */
export const MAX_BATCH = 1_000;

export const eventInput = z
  .strictObject({
    id: z
      .string()
      .min(1)
      .max(200)
      .regex(/^[A-Za-z0-9._:-]+$/, "use letters, digits, dots, dashes, colons or underscores")
      .optional(),
    type: z.string().regex(/^[a-z]+\.[a-z_]+$/, "must look like 'order.paid': a domain, a dot and a verb"),
    domain: z.enum(ALL_DOMAINS, `must be one of ${ALL_DOMAINS.join(", ")}`),
    entityId: z.string().min(1).max(200).optional(),
    payload: z.record(z.string(), z.unknown()).default({}),
  })
  .superRefine((event, ctx) => {
    if (!event.type.startsWith(`${event.domain}.`)) {
      ctx.addIssue({
        code: "custom",
        path: ["type"],
        message: `must start with '${event.domain}.' to match the domain`,
      });
    }
    if (isDomain(event.domain) && !event.entityId) {
      ctx.addIssue({ code: "custom", path: ["entityId"], message: `is required for ${event.domain} events` });
    }
  });

export type EventInput = z.infer<typeof eventInput>;

/** A validated event from the API, with its id (the caller's, or one generated for it). */
export interface IngestedEvent {
  id: string;
  type: string;
  domain: string;
  entityId?: string;
  payload: Record<string, unknown>;
}

export const withId = <E extends { id?: string }>(event: E): E & { id: string } => ({
  ...event,
  id: event.id ?? `evt_${crypto.randomUUID()}`,
});

/** Why an event naming a record the shop does not have is refused. */
export const notFoundMessage = (domain: string, entityId: string) =>
  `The ${isDomain(domain) ? DOMAIN_LABELS[domain].one : domain} '${entityId}' was not found.`;

/**
 * An issue of one event of an array: its index, the field's path under it, and what is wrong,
 * either about the field ("must be …", shown after its name) or a whole sentence (`sentence`).
 */
export interface BatchIssue {
  index: number;
  field?: string;
  message: string;
  sentence?: boolean;
}

/** Names every bad event by its index (counted from 0, like the array), as the API's issues. */
export function batchError(total: number, problems: BatchIssue[]): AppError {
  const sorted = [...problems].sort((a, b) => a.index - b.index);
  const issues: Issue[] = sorted.map((p) => ({
    path: p.field ? `${p.index}.${p.field}` : String(p.index),
    message: `event ${p.index}: ${p.field && !p.sentence ? `${p.field} ` : ""}${p.message}`,
  }));
  const bad = new Set(sorted.map((p) => p.index)).size;
  const shown = issues.slice(0, 10).map((i) => i.message.replace(/\.$/, ""));
  if (issues.length > shown.length) shown.push(`and ${issues.length - shown.length} more (see issues)`);
  const lead =
    bad === 1 ? `1 of the ${total} events is invalid` : `${bad} of the ${total} events are invalid`;
  return new AppError(
    422,
    "invalid",
    `${lead}, so none was recorded (events are numbered from 0): ${shown.join("; ")}.`,
    issues,
  );
}

/** Checks each element on its own and the array as a whole (ids used twice). */
export function parseBatch(body: unknown[]): { events: (EventInput | null)[]; problems: BatchIssue[] } {
  if (body.length === 0) {
    throw new AppError(422, "invalid", `The array of events is empty; send 1 to ${MAX_BATCH} events.`);
  }
  if (body.length > MAX_BATCH) {
    throw new AppError(
      422,
      "invalid",
      `An array can hold at most ${MAX_BATCH.toLocaleString("en")} events; this one has ${body.length.toLocaleString("en")}. Split it into several requests.`,
    );
  }
  const problems: BatchIssue[] = [];
  const firstWithId = new Map<string, number>();
  const events = body.map((raw, index) => {
    const parsed = eventInput.safeParse(raw);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = issue.path.map(String).join(".");
        problems.push({ index, field: field || undefined, message: issue.message });
      }
      return null;
    }
    const { id } = parsed.data;
    if (id !== undefined) {
      const first = firstWithId.get(id);
      if (first !== undefined) {
        problems.push({
          index,
          field: "id",
          message: `'${id}' is also the id of event ${first} (each event of one request needs its own id)`,
        });
        return null;
      }
      firstWithId.set(id, index);
    }
    return parsed.data;
  });
  return { events, problems };
}

/** The issue of an event of an array whose record the shop does not have. */
export function missingRecord(index: number, event: EventInput): BatchIssue {
  return {
    index,
    field: "entityId",
    message: notFoundMessage(event.domain, event.entityId ?? ""),
    sentence: true,
  };
}

/** The events naming a stored record that this shop does not have (one query, no writes). */
export async function missingRecords(tenantId: string, events: (EventInput | null)[]): Promise<BatchIssue[]> {
  const wanted = events.flatMap((e, i) =>
    e && isDomain(e.domain) && e.entityId ? [{ i, d: e.domain, e: e.entityId }] : [],
  );
  if (wanted.length === 0) return [];
  const rows = await getDb().execute<{ i: number }>(sql`
    select v.i from json_to_recordset(${JSON.stringify(wanted)}::json) as v(i int, d text, e text)
    where not exists (
      select 1 from ${entities}
      where ${entities.tenantId} = ${tenantId} and ${entities.domain} = v.d and ${entities.id} = v.e
    )`);
  return rows.map((r) => missingRecord(r.i, events[r.i]!));
}
