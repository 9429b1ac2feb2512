import crypto from "node:crypto";
import { sql } from "drizzle-orm";
import type { Tx } from "@/lib/db/client";
import { AppError } from "@/lib/errors";

/**
 * Inbound webhook signatures (SPEC §2): `X-Tillflow-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256
 * of "<t>.<raw body>">` with the trigger's secret. The timestamp is signed with the body, so a
 * captured delivery cannot be replayed later than `REPLAY_WINDOW_SECONDS` either way of our
 * clock, and a signature is accepted once (`webhook_signatures`), so it cannot be replayed within
 * the window either. Several `v1=` entries are allowed (a sender rotating its secret); any match
 * will do.
 */
export const SIGNATURE_HEADER = "x-tillflow-signature";
export const REPLAY_WINDOW_SECONDS = 5 * 60;
/** Kept a minute past the window, in case the database's clock runs behind the web server's. */
const KEEP_MARGIN_SECONDS = 60;

/** The header's value for a body, signed now (for senders in tests, docs and examples). */
export function signWebhook(secret: string, body: string, t = Math.floor(Date.now() / 1000)): string {
  return `t=${t},v1=${crypto.createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")}`;
}

export interface ParsedSignature {
  t: number;
  v1: string[];
}

/** `t=…,v1=…` → its parts, or null when it does not have that shape. */
export function parseSignature(header: string): ParsedSignature | null {
  let t: number | null = null;
  const v1: string[] = [];
  for (const part of header.split(",")) {
    const [name, value, ...rest] = part.trim().split("=");
    if (rest.length > 0 || value === undefined) return null;
    if (name === "t" && /^\d{1,12}$/.test(value)) t = Number(value);
    else if (name === "v1" && /^[0-9a-f]{64}$/i.test(value)) v1.push(value.toLowerCase());
    // Unknown schemes (a future v2) are ignored, as senders may send several.
  }
  return t === null || v1.length === 0 ? null : { t, v1 };
}

const unauthorized = (message: string) => new AppError(401, "unauthorized", message);

/**
 * Checks the header against the raw body and the secret, and the timestamp against `now`.
 * Returns the signature's `t` and matching `v1` (to record as used) or throws a 401 that says what
 * is wrong.
 */
export function verifySignature(
  secret: string,
  rawBody: string,
  header: string | null,
  now = Date.now(),
): { t: number; v1: string } {
  if (!header)
    throw unauthorized(
      `This webhook is signed: send an X-Tillflow-Signature header, t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>"> with the trigger's secret.`,
    );
  const parsed = parseSignature(header);
  if (!parsed)
    throw unauthorized(
      "The X-Tillflow-Signature header is not in the form t=<unix seconds>,v1=<64 hex digits>.",
    );
  const skew = Math.floor(now / 1000) - parsed.t;
  if (Math.abs(skew) > REPLAY_WINDOW_SECONDS)
    throw unauthorized(
      `The X-Tillflow-Signature was made ${Math.round(Math.abs(skew) / 60)} minutes ${skew > 0 ? "ago" : "ahead of our clock"}; a signature is accepted for 5 minutes. Sign each delivery when you send it.`,
    );
  const expected = Buffer.from(
    crypto.createHmac("sha256", secret).update(`${parsed.t}.${rawBody}`).digest("hex"),
  );
  const match = parsed.v1.find((candidate) => crypto.timingSafeEqual(expected, Buffer.from(candidate)));
  if (!match)
    throw unauthorized(
      `The X-Tillflow-Signature does not match: sign "<t>.<raw body>" with the trigger's secret (HMAC-SHA256, hex).`,
    );
  return { t: parsed.t, v1: match };
}

/**
 * Records a verified signature as used, in the caller's transaction (with the event it admits);
 * throws a 401 when it was used before. Prunes a few rows past the replay window on the way, so
 * the table holds about the last ten minutes of deliveries.
 */
export async function claimSignature(
  tx: Tx,
  token: string,
  { t, v1 }: { t: number; v1: string },
): Promise<void> {
  const rows = await tx.execute<{ signature: string }>(sql`
    with pruned as (
      delete from webhook_signatures
      where signature in (select signature from webhook_signatures where expires_at < now() limit 100)
    )
    insert into webhook_signatures (signature, expires_at)
    values (${`${token}:${v1}`}, to_timestamp(${t}::bigint + ${REPLAY_WINDOW_SECONDS + KEEP_MARGIN_SECONDS}::int))
    on conflict (signature) do nothing
    returning signature`);
  if (rows.length === 0)
    throw unauthorized(
      "This X-Tillflow-Signature was already used; sign each delivery afresh, with its own t.",
    );
}
