import type { DbOrTx } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { listenersFor, type Listener } from "../listeners";

/** How often a start is tried again when the listeners changed under it, before giving up. */
const MAX_ATTEMPTS = 5;

/** What an attempt returns when its statement found the listeners changed and wrote nothing. */
export const LISTENERS_CHANGED = Symbol("listeners changed");

/** Said when automations kept changing through every attempt (it takes a publish every few ms). */
export const listenersKeptChanging = () =>
  new AppError(
    409,
    "conflict",
    "The shop's automations changed several times while this was being recorded; nothing was recorded. Retry.",
  );

/**
 * The one retry loop of a start planned from the listeners to some event types (listeners.ts):
 * each attempt gets the listeners (remembered ones first, read afresh after that) and their stamp,
 * and its statement checks the stamp (`stampMatches`) as it writes. An attempt that found them
 * changed wrote nothing and returns `LISTENERS_CHANGED`; the next one plans again. After
 * `MAX_ATTEMPTS` the start is refused as a 409 (`listenersKeptChanging`).
 */
export async function withCurrentListeners<T>(
  db: DbOrTx,
  tenantId: string,
  types: string[],
  attempt: (
    current: { listeners: Listener[]; stamp: string },
    n: number,
  ) => Promise<T | typeof LISTENERS_CHANGED>,
): Promise<T> {
  for (let n = 0; n < MAX_ATTEMPTS; n++) {
    const current = await listenersFor(db, tenantId, types, { fresh: n > 0 });
    const result = await attempt(current, n);
    if (result !== LISTENERS_CHANGED) return result;
  }
  throw listenersKeptChanging();
}
