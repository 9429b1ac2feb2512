import { and, eq, lt, or, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { AppError } from "@/lib/errors";

/** Keyset cursors: an opaque encoding of the last row's (timestamp, id). */
export function encodeCursor(at: Date, id: string): string {
  return Buffer.from(JSON.stringify([at.toISOString(), id])).toString("base64url");
}

export function decodeCursor(cursor: string): { at: Date; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, "base64url").toString()) as [unknown, unknown];
    const date = new Date(String(at));
    if (Number.isNaN(date.getTime()) || typeof id !== "string") throw new Error("bad cursor");
    return { at: date, id };
  } catch {
    throw new AppError(
      400,
      "bad_request",
      "The cursor is not one this API returned; start again without it.",
    );
  }
}

/**
 * The rows after a decoded cursor in `(at desc, id desc)` order, as a where-condition; `undefined`
 * (no condition) on the first page.
 */
export function afterCursor(
  atColumn: AnyPgColumn,
  idColumn: AnyPgColumn,
  cursor: { at: Date; id: string } | null,
): SQL | undefined {
  return cursor
    ? or(lt(atColumn, cursor.at), and(eq(atColumn, cursor.at), lt(idColumn, cursor.id)))
    : undefined;
}
