import { AppError } from "@/lib/errors";

/**
 * Keyset cursors that keep PostgreSQL's microseconds. A JavaScript Date holds milliseconds only,
 * and runs started in one transaction share one `now()`, so a cursor rounded to the millisecond
 * would skip the rest of a page boundary's rows. The timestamp therefore travels as the text
 * PostgreSQL gave us (`created_at_text`), and goes back in with a `::timestamptz` cast.
 */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** SQL that renders a timestamptz column as an ISO string with microseconds, in UTC. */
export const preciseTimestamp = (column: string) =>
  `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

export function encodePreciseCursor(at: string, id: string): string {
  return Buffer.from(JSON.stringify([at, id])).toString("base64url");
}

/** Accepts these cursors and the millisecond ones of `cursor.ts` (same shape). */
export function decodePreciseCursor(cursor: string): { at: string; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, "base64url").toString()) as [unknown, unknown];
    if (typeof at !== "string" || !TIMESTAMP.test(at) || typeof id !== "string" || !UUID.test(id))
      throw new Error("bad cursor");
    if (Number.isNaN(new Date(at).getTime())) throw new Error("bad cursor");
    return { at, id };
  } catch {
    throw new AppError(
      400,
      "bad_request",
      "The cursor is not one this API returned; start again without it.",
    );
  }
}
