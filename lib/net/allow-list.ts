import { isIpLiteral, parseRange } from "./address";
import { config } from "@/lib/config/config";

/**
 * `HTTP_ACTION_ALLOW`: hosts and networks an administrator lets the HTTP action call even though
 * they are not public, as a comma list of hostnames (`localhost`, `billing.internal`), addresses
 * (`127.0.0.1`, `::1`) and CIDR ranges (`10.1.0.0/16`). Default: empty, so only public internet
 * addresses are called. Tests and benches set `127.0.0.1,localhost` for their local receivers.
 */
export interface AllowList {
  /** Whether the hostname itself is listed (then any address it resolves to is allowed). */
  host(hostname: string): boolean;
  /** Whether the address is in a listed address or range. */
  address(address: string): boolean;
}

let cached: { text: string; list: AllowList } | null = null;

export function parseAllowList(text: string): AllowList {
  const hosts = new Set<string>();
  const ranges: ((address: string) => boolean)[] = [];
  for (const raw of text.split(",")) {
    const entry = raw
      .trim()
      .toLowerCase()
      .replace(/^\[(.*)\]$/, "$1");
    if (!entry) continue;
    const range = entry.includes("/") || isIpLiteral(entry) ? parseRange(entry) : null;
    if (range) ranges.push(range);
    else hosts.add(entry.replace(/\.$/, ""));
  }
  return {
    host: (hostname) =>
      hosts.has(
        hostname
          .toLowerCase()
          .replace(/^\[(.*)\]$/, "$1")
          .replace(/\.$/, ""),
      ),
    address: (address) => ranges.some((match) => match(address)),
  };
}

/** The allow list from the environment, read on every call (tests change it) and parsed once per value. */
export function allowList(): AllowList {
  const text = config().HTTP_ACTION_ALLOW ?? "";
  if (cached?.text !== text) cached = { text, list: parseAllowList(text) };
  return cached.list;
}

/**
 * Whether HTTP_ACTION_ALLOW lists this host itself, or (for an address literal) its address: a
 * check that needs no resolving, for a URL stored before it is called (a Slack webhook credential).
 */
export function allowsHost(hostname: string): boolean {
  const host = hostname.replace(/^\[(.*)\]$/, "$1");
  const allow = allowList();
  return allow.host(host) || (isIpLiteral(host) && allow.address(host));
}
