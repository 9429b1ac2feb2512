import { sql, type SQL } from "drizzle-orm";
import { consume } from "@/lib/rate-limit";
import { getDb } from "@/lib/db/client";
import { addressGroup, clientAddress } from "@/lib/net/client-address";
import { config } from "@/lib/config/config";

/**
 * Sign-in limits (SPEC §2 "Trust at the edges"), counted in Postgres (`rate_limit_windows`) so
 * every web process shares them. Both apply to the sign-in form and to better-auth's HTTP endpoint
 * `/api/auth/sign-in/email` alike: lib/auth/auth.ts runs them as better-auth hooks.
 *
 * - Per client address (lib/net/client-address.ts): `SIGN_IN_ATTEMPTS_PER_MINUTE` attempts a
 *   minute (default 10), right or wrong. Only where the address is known (the production server):
 *   under `next dev`, or a call with no request behind it, every client would share one count,
 *   which one of them could use up for all.
 * - Per account (the email, lower-cased): after `FREE_FAILURES` failed sign-ins in a row, each
 *   further attempt waits a growing delay after the last one — 30 s, 1 min, 2 min, … at most
 *   15 min. A successful sign-in clears the account's count; a streak quiet for a day is forgotten.
 *   The delay holds only attempts from addresses that are new to the account: one that signed in
 *   to it successfully in the last `KNOWN_FOR` neither counts nor waits, so whoever guesses at an
 *   email from elsewhere cannot lock its owner out (the per-address limit still holds the known
 *   address to its attempts a minute).
 *
 * Addresses are counted by `addressGroup` in every limit: an IPv6 address as its /64, which one
 * host can rotate through. A known address is a row `sign-in-known:<email> <group>` in
 * `rate_limit_windows` (`window_start` the last success there), not better-auth's `sessions.ip_address`:
 * a session is deleted on sign-out, so the owner would lose the address the moment they signed out,
 * and better-auth records the socket's address, which behind a trusted proxy is the proxy's for
 * every client. The table is unlogged: after a crash known addresses are forgotten, which only
 * falls back to the account's delay.
 *
 * An account's row in `rate_limit_windows` is `sign-in-account:<email>`: `hits` counts the
 * attempts in the streak and `window_start` is the last one. An attempt is counted when it starts
 * (one statement that also refuses it while the account waits), so parallel guesses cannot all
 * pass the check before the first failure lands; a success then deletes the row, and an attempt
 * that ends any other way than "wrong email or password" (a server error, a database that went
 * away) is taken back: only credentials refused count toward the limit.
 *
 * `AUTH_RATE_LIMIT=off` turns both off (the e2e tests sign in many times from one address).
 */
export const FREE_FAILURES = 5;
const FIRST_DELAY_SECONDS = 30;
const MAX_DELAY_SECONDS = 15 * 60;
const STREAK_FORGOTTEN_AFTER = "24 hours";
/** How long an address that signed in to an account stays known to it. */
const KNOWN_FOR = "90 days";

/** A sign-in refused before its password is checked: the sentence to show and the seconds to wait. */
export interface SignInRefusal {
  message: string;
  retryAfterSeconds: number;
}

function enabled(): boolean {
  return config().AUTH_RATE_LIMIT;
}

function attemptsPerMinute(): number {
  return config().SIGN_IN_ATTEMPTS_PER_MINUTE;
}

/** "45 seconds", "1 minute", "2 minutes". */
export function waitWords(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}

/** The wait after `attempts` attempts in a row, as SQL over `hits` (0 while under the free ones). */
const delaySeconds = (hits: SQL) =>
  sql`(case when ${hits} < ${FREE_FAILURES} then 0
    else least(${FIRST_DELAY_SECONDS} * power(2, least(${hits} - ${FREE_FAILURES}, 20)), ${MAX_DELAY_SECONDS}) end)`;

const PRUNE_CHANCE = 0.01;

export async function pruneForgottenStreaks(now: Date): Promise<void> {
  await getDb().execute(sql`
    delete from rate_limit_windows
    where (key like 'sign-in-account:%'
        and window_start < ${now.toISOString()}::timestamptz - interval '${sql.raw(STREAK_FORGOTTEN_AFTER)}')
      or (key like 'sign-in-known:%'
        and window_start < ${now.toISOString()}::timestamptz - interval '${sql.raw(KNOWN_FOR)}')`);
}

const normalEmail = (email: string) => email.trim().toLowerCase();
const accountKey = (email: string) => `sign-in-account:${normalEmail(email)}`;
const knownKey = (email: string, group: string) => `sign-in-known:${normalEmail(email)} ${group}`;

/** The request's address group, or null where the address is not known (see `admitSignIn`). */
function groupOf(headers: Headers): string | null {
  const address = clientAddress(headers);
  return address === "unknown" ? null : addressGroup(address);
}

/**
 * Whether the request comes from an address that signed in to the account before (within
 * `KNOWN_FOR`): its attempts are not held by the account's delay, nor counted toward it.
 */
export async function fromKnownAddress(email: string, headers: Headers, now = new Date()): Promise<boolean> {
  if (!enabled()) return false;
  const group = groupOf(headers);
  if (!group) return false;
  const rows = await getDb().execute<{ known: boolean }>(sql`
    select true as known from rate_limit_windows
    where key = ${knownKey(email, group)}
      and window_start >= ${now.toISOString()}::timestamptz - interval '${sql.raw(KNOWN_FOR)}'`);
  return rows.length > 0;
}

/**
 * Counts an attempt for the account, or refuses it while the account waits (the attempt is then
 * not counted). Returns the refusal, or null when the password may be checked.
 */
async function countAccountAttempt(email: string, now: Date): Promise<SignInRefusal | null> {
  const key = accountKey(email);
  const at = now.toISOString();
  const rows = await getDb().execute<{ hits: number }>(sql`
    insert into rate_limit_windows as w (key, window_start, hits)
    values (${key}, ${at}::timestamptz, 1)
    on conflict (key) do update set
      hits = case when w.window_start < ${at}::timestamptz - interval '${sql.raw(STREAK_FORGOTTEN_AFTER)}'
        then 1 else w.hits + 1 end,
      window_start = ${at}::timestamptz
    where w.window_start + ${delaySeconds(sql`w.hits`)} * interval '1 second' <= ${at}::timestamptz
    returning w.hits`);
  if (rows.length > 0) {
    // Now and then, forget streaks quiet for a day: anyone can try any email, so rows would pile up.
    if (Math.random() < PRUNE_CHANCE) await pruneForgottenStreaks(now);
    return null;
  }
  const [row] = await getDb().execute<{ wait: number }>(sql`
    select ceil(extract(epoch from w.window_start + ${delaySeconds(sql`w.hits`)} * interval '1 second'
      - ${at}::timestamptz))::int as wait
    from rate_limit_windows w where w.key = ${key}`);
  const wait = Math.max(1, Number(row?.wait ?? 1));
  return {
    message: `Too many failed sign-ins for this account. Try again in ${waitWords(wait)}.`,
    retryAfterSeconds: wait,
  };
}

/**
 * Before a sign-in's password is checked: counts the attempt per client address and per account,
 * and returns a refusal when either is over its limit.
 */
export async function admitSignIn(
  email: string,
  headers: Headers,
  now = new Date(),
): Promise<SignInRefusal | null> {
  if (!enabled()) return null;
  const group = groupOf(headers);
  const perAddress = group
    ? await consume(`sign-in-address:${group}`, { max: attemptsPerMinute(), windowSeconds: 60 })
    : null;
  if (perAddress && !perAddress.allowed) {
    return {
      message: `Too many sign-in attempts from your network. Try again in ${waitWords(perAddress.retryAfterSeconds)}.`,
      retryAfterSeconds: perAddress.retryAfterSeconds,
    };
  }
  if (await fromKnownAddress(email, headers, now)) return null;
  return countAccountAttempt(email, now);
}

/**
 * After an attempt that was counted but not refused for its credentials (the server failed, the
 * request was malformed): it is taken back, so only a wrong email or password adds to the streak.
 */
export async function uncountAccountAttempt(email: string, headers: Headers): Promise<void> {
  if (!enabled()) return;
  // An attempt from a known address was never counted: taking one back would help a guesser.
  if (await fromKnownAddress(email, headers)) return;
  await getDb().execute(sql`
    update rate_limit_windows set hits = hits - 1 where key = ${accountKey(email)} and hits > 0`);
}

/**
 * After a successful sign-in: the account's streak of failures is over, and the address (its
 * group) is known to the account from now on.
 */
export async function clearAccountFailures(email: string, headers: Headers, now = new Date()): Promise<void> {
  if (!enabled()) return;
  await getDb().execute(sql`delete from rate_limit_windows where key = ${accountKey(email)}`);
  const group = groupOf(headers);
  if (!group) return;
  await getDb().execute(sql`
    insert into rate_limit_windows (key, window_start, hits)
    values (${knownKey(email, group)}, ${now.toISOString()}::timestamptz, 1)
    on conflict (key) do update set window_start = excluded.window_start`);
}
