import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { parseRange } from "./address";
import { config } from "@/lib/config/config";

/**
 * The client's address as the web server saw it, for limits counted per client (sign-in).
 *
 * The socket's address is the client unless it is a proxy listed in `TRUSTED_PROXIES` (a comma
 * list of addresses and CIDR ranges; none by default). Through trusted proxies, `X-Forwarded-For`
 * is walked right to left, each trusted proxy skipped: the first entry that is not one is the
 * client. Entries left of it were written by the client itself and prove nothing.
 *
 * The socket's address reaches route handlers in `CLIENT_ADDRESS_HEADER`, which the production
 * server (server/index.ts) sets on every request after deleting any the client sent. It is read
 * only in a process that server marked (`markClientAddressHeaderSet`); anywhere else (`next dev`,
 * `next start`) a client could have written it, so the address is `unknown`.
 */
export const CLIENT_ADDRESS_HEADER = "x-tillflow-client-address";

const holder = globalThis as unknown as { __tillflowClientAddressHeader?: boolean };

/** Called by the production server, which sets `CLIENT_ADDRESS_HEADER` on every request. */
export function markClientAddressHeaderSet(): void {
  holder.__tillflowClientAddressHeader = true;
}

let cached: { text: string; matchers: ((address: string) => boolean)[] } | null = null;

/** `TRUSTED_PROXIES`, read on every call (tests change it) and parsed once per value. */
function trustedProxies(): ((address: string) => boolean)[] {
  const text = config().TRUSTED_PROXIES ?? "";
  if (cached?.text !== text) {
    const matchers = text
      .split(",")
      .map((entry) => entry.trim())
      .filter(Boolean)
      .map((entry) => parseRange(entry))
      .filter((match): match is (address: string) => boolean => match !== null);
    cached = { text, matchers };
  }
  return cached.matchers;
}

/** `::ffff:127.0.0.1` → `127.0.0.1`, lower case; null for anything that is not an IP address. */
function normalise(text: string | undefined): string | null {
  const address = (text ?? "")
    .trim()
    .replace(/^\[(.*)\]$/, "$1")
    .toLowerCase();
  if (!isIP(address)) return null;
  return address.startsWith("::ffff:") && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

function isTrusted(address: string): boolean {
  return trustedProxies().some((match) => match(address));
}

/** Whether the socket's peer is a proxy listed in `TRUSTED_PROXIES` (its forwarded headers count). */
export function isTrustedProxy(socketAddress: string | undefined): boolean {
  const address = normalise(socketAddress);
  return address !== null && isTrusted(address);
}

/**
 * The client behind `socketAddress`, given the request's `X-Forwarded-For` (right to left through
 * trusted proxies). A malformed entry ends the walk there: the last trusted proxy is the client.
 */
export function clientAddressOf(socketAddress: string | undefined, forwardedFor: string | null): string {
  let client = normalise(socketAddress);
  if (!client) return "unknown";
  const entries = (forwardedFor ?? "").split(",").reverse();
  for (const entry of entries) {
    if (!isTrusted(client)) break;
    const next = normalise(entry);
    if (!next) break;
    client = next;
  }
  return client;
}

/** The client's address for a request a route handler or server action is answering. */
export function clientAddress(headers: Headers): string {
  const socket = holder.__tillflowClientAddressHeader ? headers.get(CLIENT_ADDRESS_HEADER) : null;
  return clientAddressOf(socket ?? undefined, headers.get("x-forwarded-for"));
}

/**
 * The address a per-client limit counts under: an IPv4 address as it is, an IPv6 address as its
 * /64 (`2001:db8:1:2::/64`). One IPv6 host is usually handed a whole /64, so counting each full
 * address would let it rotate past any per-address limit; `unknown` stays `unknown`.
 */
export function addressGroup(address: string): string {
  if (isIP(address) !== 6) return address;
  const parts = ipaddr.IPv6.parse(address).parts.slice(0, 4);
  return `${parts.map((part) => part.toString(16)).join(":")}::/64`;
}
