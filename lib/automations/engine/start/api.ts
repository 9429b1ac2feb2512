import { AppError, parseOrThrow } from "@/lib/errors";
import {
  batchError,
  eventInput,
  missingRecord,
  missingRecords,
  notFoundMessage,
  parseBatch,
  withId,
  type EventInput,
} from "@/lib/events/input";
import type { RecordedEvent } from "@/lib/events/types";
import { metrics } from "@/lib/metrics/metrics";
import { recordGrouped } from "./group";
import { recordIngested } from "./ingest";

/*
 * `POST /api/v1/events`: events sent through the API, recorded with the runs they start
 * (ingest.ts, one prepared statement). What an event of the API is, and the sentences that refuse
 * one, are lib/events/input.ts's.
 */

/**
 * Records an event sent through the API. Idempotent by `id`: sending the same id again records
 * nothing and reports `duplicate: true`. Events about stored records must name one that exists.
 * Events arriving together are written together (group.ts).
 */
export async function ingestEvent(
  tenantId: string,
  body: unknown,
): Promise<{ event: RecordedEvent; duplicate: boolean }> {
  const event = withId(parseOrThrow(eventInput, body, "The event is invalid"));
  const outcome = await recordGrouped(tenantId, event);
  if (outcome.missing) {
    throw new AppError(404, "not_found", notFoundMessage(event.domain, event.entityId ?? ""));
  }
  if (outcome.createdAt !== null) metrics().events.inc();
  return {
    event: {
      id: event.id,
      type: event.type,
      domain: event.domain,
      entityId: event.entityId ?? null,
      payload: event.payload,
      createdAt: outcome.createdAt ?? new Date(),
      inserted: outcome.createdAt !== null,
    },
    duplicate: outcome.createdAt === null,
  };
}

export interface BatchItem {
  id: string;
  /** True when an event with this id was already recorded: nothing was recorded again. */
  duplicate: boolean;
}

/**
 * Records an array of 1..1,000 events in one transaction, each idempotent by id, and returns
 * `{ id, duplicate }` per event in input order. A bad event refuses the whole array: every problem
 * (a bad field, an id used twice, a record that does not exist) is named by index and nothing is
 * written. Set-based: one query checks every record, one insert records every event, and the runs
 * they trigger start together.
 */
export async function ingestEvents(tenantId: string, body: unknown[]): Promise<{ items: BatchItem[] }> {
  const { events, problems } = parseBatch(body);
  if (problems.length > 0) {
    // The valid events' missing records are named too, so one reply lists every problem.
    throw batchError(body.length, [...problems, ...(await missingRecords(tenantId, events))]);
  }
  const valid = events.filter((e): e is EventInput => e !== null).map(withId);
  const { missing, insertedAt } = await recordIngested(tenantId, valid, { allOrNothing: true });
  if (missing.length > 0) {
    throw batchError(
      body.length,
      missing.map((i) => missingRecord(i, valid[i]!)),
    );
  }
  metrics().events.inc(insertedAt.size);
  return { items: valid.map((e) => ({ id: e.id, duplicate: !insertedAt.has(e.id) })) };
}
