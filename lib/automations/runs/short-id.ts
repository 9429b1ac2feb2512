/**
 * A run's short id: the part of its id people read, copy and search by.
 *
 * Run ids made since the month partitioning (drizzle/0011) read 7111f10e-MMMM-8xxx-yxxx-xxxxxxxxxxxx:
 * the first 8 characters are the same for every run and the next 4 name the month, so the start of
 * an id tells nothing apart. The last 8 characters are random (32 of the id's 74 random bits) in
 * those ids and in the older random ones alike, so they are the short id. Browser-safe.
 */
export const SHORT_ID_LENGTH = 8;

/** The short id of a run, e.g. `3fa9c01e` for `7111f10e-0d8b-8a21-b3c4-5e6f3fa9c01e`. */
export function shortRunId(runId: string): string {
  return runId.slice(-SHORT_ID_LENGTH).toLowerCase();
}

/** What a run search asks for: one run by its full id, or the runs whose id ends in `tail`. */
export type RunRef = { kind: "id"; id: string } | { kind: "tail"; tail: string };

const FULL_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** The shortest tail worth searching by: fewer characters would match runs by the thousand. */
export const MIN_TAIL = 4;
const TAIL = new RegExp(`^[0-9a-f]{${MIN_TAIL},12}$`);

/** The sentence a search that is neither a full id nor the end of one answers with. */
export const RUN_REF_HINT = `must be a run's short id as the Run column shows it (like 3fa9c01e: ${MIN_TAIL} to 12 of the characters 0–9 and a–f, from the end of the id) or its full id`;

/**
 * Reads what someone typed to find a run: a full id, or the end of one (the short id, or a few
 * more or fewer of its last characters). Case and surrounding spaces do not matter; a leading `#`
 * is forgiven. Null when it is neither.
 */
export function parseRunRef(text: string): RunRef | null {
  const value = text.trim().replace(/^#/, "").toLowerCase();
  if (FULL_ID.test(value)) return { kind: "id", id: value };
  if (TAIL.test(value)) return { kind: "tail", tail: value };
  return null;
}
