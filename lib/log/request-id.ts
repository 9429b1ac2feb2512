import crypto from "node:crypto";

/** The header a request id arrives and is answered in. */
export const REQUEST_ID_HEADER = "x-request-id";

/**
 * 1 to 128 letters, digits, `-`, `_`, `.` or `:` — what proxies and load balancers send (UUIDs,
 * `Root=1-…` trace ids without the `=`). Anything else is replaced, so a client cannot write
 * spaces, quotes or a thousand characters into every line logged for its request.
 */
const SANE = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request's id: the one it came with when sane, else a new one. */
export function requestIdOf(incoming: string | null | undefined): string {
  return incoming && SANE.test(incoming) ? incoming : crypto.randomUUID();
}
