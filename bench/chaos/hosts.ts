/** Hosts on one machine: a network namespace each, joined by a bridge, whose links can be cut, slowed and made lossy. */
import { execFileSync } from "node:child_process";

/** The subnet the hosts live in; nothing outside it is touched. */
const SUBNET = "10.203.0";
const BRIDGE = "tfchaos0";
const PREFIX = "tfchaos-";

export interface Host {
  name: string;
  /** The namespace, `tfchaos-<name>`. */
  namespace: string;
  /** Its one address on the bridge. */
  address: string;
  /** The command prefix that runs a program on this host. */
  exec: string[];
}

function ip(...args: string[]): void {
  execFileSync("ip", args, { stdio: ["ignore", "ignore", "pipe"] });
}

function nft(host: Host, script: string): void {
  execFileSync("ip", ["netns", "exec", host.namespace, "nft", "-f", "-"], {
    input: script,
    stdio: ["pipe", "ignore", "pipe"],
  });
}

/** Why hosts cannot be made here, or null when they can (root, iproute2 and nftables, namespaces allowed). */
export function hostsUnavailable(): string | null {
  if (process.platform !== "linux") return "network namespaces need Linux";
  if (typeof process.getuid !== "function" || process.getuid() !== 0)
    return "making network namespaces needs root";
  for (const tool of ["ip", "nft"]) {
    try {
      execFileSync("sh", ["-c", `command -v ${tool}`], { stdio: "ignore" });
    } catch {
      return `\`${tool}\` is not installed (Debian: ${tool === "ip" ? "iproute2" : "nftables"})`;
    }
  }
  const probe = `${PREFIX}probe`;
  try {
    ip("netns", "add", probe);
    execFileSync("ip", ["netns", "exec", probe, "nft", "list", "ruleset"], { stdio: "ignore" });
    return null;
  } catch (error) {
    return `this machine refuses network namespaces or nftables (${String((error as Error).message).split("\n")[0]})`;
  } finally {
    try {
      ip("netns", "del", probe);
    } catch {
      // It was never made.
    }
  }
}

/**
 * The cluster: a bridge in this (the driver's) namespace at `10.203.0.1`, and one namespace per
 * host name with a veth to the bridge at `10.203.0.<n>`. Leftovers of an earlier run are removed
 * first; `remove()` takes everything away.
 */
export class Hosts {
  readonly byName = new Map<string, Host>();
  /** The driver's own address on the bridge. */
  readonly driverAddress = `${SUBNET}.1`;

  constructor(names: string[]) {
    Hosts.removeLeftovers();
    ip("link", "add", BRIDGE, "type", "bridge");
    ip("addr", "add", `${this.driverAddress}/24`, "dev", BRIDGE);
    ip("link", "set", BRIDGE, "up");
    names.forEach((name, i) => {
      const namespace = `${PREFIX}${name}`;
      const address = `${SUBNET}.${10 + i * 10}`;
      ip("netns", "add", namespace);
      ip("link", "add", this.outer(name), "type", "veth", "peer", "name", "eth0", "netns", namespace);
      ip("link", "set", this.outer(name), "master", BRIDGE, "up");
      ip("-n", namespace, "addr", "add", `${address}/24`, "dev", "eth0");
      ip("-n", namespace, "link", "set", "eth0", "up");
      ip("-n", namespace, "link", "set", "lo", "up");
      this.byName.set(name, { name, namespace, address, exec: ["ip", "netns", "exec", namespace] });
    });
  }

  host(name: string): Host {
    const host = this.byName.get(name);
    if (!host) throw new Error(`No host ${name}.`);
    return host;
  }

  /** The host's veth end on the bridge side. */
  private outer(name: string): string {
    return `tfc-${name}`.slice(0, 15);
  }

  /** Pulls the host's cable: its link goes down, packets either way are lost, nothing is refused. */
  cut(name: string): void {
    ip("link", "set", this.outer(name), "down");
  }

  restore(name: string): void {
    ip("link", "set", this.outer(name), "up");
  }

  /** Drops `percent` % of the packets the host sends and receives (nftables), until `clearLoss`. */
  lose(name: string, percent: number): void {
    nft(
      this.host(name),
      `table inet chaos {
        chain out { type filter hook output priority 0; numgen random mod 100 < ${percent} drop; }
        chain in { type filter hook input priority 0; numgen random mod 100 < ${percent} drop; }
      }`,
    );
  }

  clearLoss(name: string): void {
    nft(this.host(name), "delete table inet chaos");
  }

  /** Drops every packet between two hosts (both ways, at `name`), until `reconnect`. */
  separate(name: string, from: string): void {
    const other = this.host(from).address;
    nft(
      this.host(name),
      `table inet separate {
        chain out { type filter hook output priority 0; ip daddr ${other} drop; }
        chain in { type filter hook input priority 0; ip saddr ${other} drop; }
      }`,
    );
  }

  reconnect(name: string): void {
    nft(this.host(name), "delete table inet separate");
  }

  remove(): void {
    Hosts.removeLeftovers();
  }

  /** Deletes every namespace and the bridge this suite made (a crashed run's too). */
  static removeLeftovers(): void {
    const namespaces = execFileSync("ip", ["netns", "list"], { encoding: "utf8" })
      .split("\n")
      .map((line) => line.split(" ")[0]!)
      .filter((name) => name.startsWith(PREFIX));
    for (const namespace of namespaces) ip("netns", "del", namespace);
    try {
      ip("link", "del", BRIDGE);
    } catch {
      // Not there.
    }
  }
}
