import dns from "node:dns/promises";
import { classifyAddress, isIpLiteral, type AddressClass } from "./address";
import { allowList } from "./allow-list";

/**
 * The outbound-HTTP guard (SPEC §2 "Outbound HTTP is guarded"): a merchant's URL may only reach
 * public internet addresses, so a flow cannot make our servers call this machine, the private
 * network or the cloud's metadata service. The host is resolved first and every address it
 * resolves to is checked; the caller then connects to the checked address (`pinnedLookup`), so
 * a DNS answer that changes between the check and the connection (DNS rebinding) cannot slip in.
 */

/** A URL the guard will not call. Permanent: trying again later would be refused the same way. */
export class RefusedUrlError extends Error {
  constructor(
    message: string,
    /**
     * The refused address a host name resolved to, for the server's own logs only: the message
     * never names it, since run history and dry runs (which viewers read) would map the network.
     */
    readonly resolved?: { address: string; kind: AddressClass },
  ) {
    super(message);
    this.name = "RefusedUrlError";
  }
}

/** The address a request connects to, after the guard checked it. */
export interface CheckedAddress {
  address: string;
  family: 4 | 6;
}

const ALLOW_HINT =
  "Tillflow only calls public internet addresses; an administrator can allow a host with HTTP_ACTION_ALLOW.";

/** The URL as the refusal shows it: its origin, with the path elided (a query may carry a secret). */
function shown(url: URL): string {
  return `${url.origin}/${url.pathname === "/" && !url.search ? "" : "…"}`;
}

function article(kind: AddressClass): string {
  // "a unique local", "a loopback", "an unspecified".
  return kind === "unspecified" ? "an" : "a";
}

/** A literal address the merchant wrote: naming it and its kind tells them nothing new. */
function refusal(url: URL, address: string, kind: AddressClass): RefusedUrlError {
  return new RefusedUrlError(
    `Refused to call ${shown(url)}: it is ${article(kind)} ${kind} address (${address}). ${ALLOW_HINT}`,
  );
}

/**
 * A host name that resolved to an address the guard refuses: the message names the host as typed
 * but not what it resolved to (nor its kind), so a refusal cannot be used to map the private network.
 */
function resolvedRefusal(url: URL, address: string, kind: AddressClass): RefusedUrlError {
  return new RefusedUrlError(
    `Refused to call ${shown(url)}: ${url.hostname} is not a public address. ${ALLOW_HINT}`,
    { address, kind },
  );
}

/** The URL as an http(s) URL, or a refusal that says why not. */
export function parseHttpUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new RefusedUrlError(`'${text}' is not an http(s) address.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new RefusedUrlError(`'${text}' is not an http(s) address.`);
  return url;
}

/** The host of a URL without IPv6 brackets (`[::1]` → `::1`). */
function bareHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

/**
 * What can be said about a URL without resolving its host: a refusal for a URL that is not http(s)
 * or whose host is an address literal the guard refuses; null otherwise. For `check`, which
 * runs synchronously before a delivery is recorded.
 */
export function literalRefusal(text: string): string | null {
  let url: URL;
  try {
    url = parseHttpUrl(text);
  } catch (error) {
    return (error as Error).message;
  }
  const host = bareHost(url);
  if (!isIpLiteral(host)) return null;
  const allow = allowList();
  if (allow.host(host) || allow.address(host)) return null;
  const kind = classifyAddress(host);
  return kind === "public" ? null : refusal(url, host, kind).message;
}

/** Resolves every address of a host (the system resolver, as a connection would). Replaceable in tests. */
export type Resolver = (hostname: string) => Promise<CheckedAddress[]>;

const systemResolver: Resolver = async (hostname) =>
  (await dns.lookup(hostname, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

/**
 * Checks a URL and returns the address to connect to. Refuses (RefusedUrlError) a scheme other
 * than http(s), and a host that is, or resolves to any, address that is not public — unless the
 * host or the address is in HTTP_ACTION_ALLOW. One bad address among several refuses the host:
 * a connection could land on any of them. A host that does not resolve throws the resolver's
 * error (a network error, which may pass).
 */
export async function checkUrl(url: URL, resolve: Resolver = systemResolver): Promise<CheckedAddress> {
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new RefusedUrlError(`'${url.href}' is not an http(s) address.`);
  const host = bareHost(url);
  const allow = allowList();
  const literal = isIpLiteral(host);
  const addresses: CheckedAddress[] = literal
    ? [{ address: host, family: host.includes(":") ? 6 : 4 }]
    : await resolve(host);
  if (addresses.length === 0) throw new Error(`${host} has no address`);
  if (!allow.host(host)) {
    for (const { address } of addresses) {
      if (allow.address(address)) continue;
      const kind = classifyAddress(address);
      if (kind !== "public")
        throw literal ? refusal(url, address, kind) : resolvedRefusal(url, address, kind);
    }
  }
  return addresses[0]!;
}

/** A `lookup` for http(s).request that answers with the checked address, whatever the name. */
export function pinnedLookup(checked: CheckedAddress) {
  return (
    _hostname: string,
    options: { all?: boolean },
    callback: (
      error: NodeJS.ErrnoException | null,
      address: string | { address: string; family: number }[],
      family?: number,
    ) => void,
  ): void => {
    if (options.all) callback(null, [{ address: checked.address, family: checked.family }]);
    else callback(null, checked.address, checked.family);
  };
}
