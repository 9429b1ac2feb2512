import ipaddr from "ipaddr.js";

/**
 * What kind of address an IP is, for the outbound-HTTP guard. Only `public` addresses may be
 * called; every other class names a network a merchant's URL must not reach from our servers
 * (this machine, the private network, the cloud's metadata service, …).
 */
export type AddressClass =
  | "public"
  | "loopback"
  | "private"
  | "link-local"
  | "carrier-grade NAT"
  | "multicast"
  | "unspecified"
  | "broadcast"
  | "unique local"
  | "reserved";

const LABELS: Record<string, AddressClass> = {
  unicast: "public",
  loopback: "loopback",
  private: "private",
  linkLocal: "link-local",
  carrierGradeNat: "carrier-grade NAT",
  multicast: "multicast",
  unspecified: "unspecified",
  broadcast: "broadcast",
  uniqueLocal: "unique local",
  // Site-local is the deprecated predecessor of unique local addresses: a private network.
  deprecatedSiteLocal: "private",
};

/**
 * The class of an IP address (v4 or v6). An IPv4 address written in IPv6 (`::ffff:127.0.0.1`) is
 * classed as the IPv4 address it carries. Ranges that embed or translate to other addresses
 * (NAT64, 6to4, Teredo), documentation, benchmarking and future-use ranges are `reserved`:
 * a merchant's endpoint never needs them, and they can be routed somewhere we cannot see.
 */
export function classifyAddress(address: string): AddressClass {
  let ip = ipaddr.parse(address);
  if (ip.kind() === "ipv6" && (ip as ipaddr.IPv6).isIPv4MappedAddress()) {
    ip = (ip as ipaddr.IPv6).toIPv4Address();
  }
  return LABELS[ip.range()] ?? "reserved";
}

/** Whether `text` is an IP address literal (v4 in dotted form, or v6 without brackets). */
export function isIpLiteral(text: string): boolean {
  return ipaddr.IPv4.isValidFourPartDecimal(text) || ipaddr.IPv6.isValid(text);
}

/** An IPv4 or IPv6 range (`10.0.0.0/8`) or a single address (`127.0.0.1`), as a matcher. */
export function parseRange(text: string): ((address: string) => boolean) | null {
  try {
    const [range, bits] = text.includes("/")
      ? ipaddr.parseCIDR(text)
      : [ipaddr.parse(text), text.includes(":") ? 128 : 32];
    return (address) => {
      let ip = ipaddr.parse(address);
      if (ip.kind() === "ipv6" && (ip as ipaddr.IPv6).isIPv4MappedAddress()) {
        ip = (ip as ipaddr.IPv6).toIPv4Address();
      }
      return ip.kind() === range.kind() && ip.match(range, bits);
    };
  } catch {
    return null;
  }
}
