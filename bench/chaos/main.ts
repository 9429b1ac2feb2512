/** `npm run chaos`: the crash suite's command line; a fresh database, one run, its table, and exit code 1 unless it passed. */
import fs from "node:fs";
import path from "node:path";
import { surviveDatabaseRestarts } from "@/lib/db/connection";
import { dataRoot } from "@/lib/db/embedded";
import { benchDatabase } from "../harness";
import { chaosPassed, chaosTable } from "./report";
import { runChaos, type ChaosOptions } from "./scenario";
import { hostsUnavailable } from "./hosts";
import { hostRoundPassed, hostsTable, runHostChaos } from "./network";
import { messagingPassed, runMessagingChaos } from "./messaging";

function flag(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

/** `--hosts`: Postgres, web, workers and receiver on hosts of their own, and faults across their links (network.ts). */
async function mainHosts(): Promise<void> {
  const unavailable = hostsUnavailable();
  if (unavailable) {
    console.error(`Chaos across hosts cannot run here: ${unavailable}.`);
    process.exitCode = 1;
    return;
  }
  const quick = process.argv.includes("--quick");
  const runsPerFault = Number(flag("runs") ?? (quick ? 200 : 1000));
  console.log(
    `Chaos across hosts: ${3 * runsPerFault} runs in three rounds, one fault each; logs in ${path.join(dataRoot(), "chaos-hosts-logs")}`,
  );
  const rows = await runHostChaos({
    runsPerFault,
    cutMs: Number(flag("cut-seconds") ?? 30) * 1000,
    webCutMs: Number(flag("web-cut-seconds") ?? 15) * 1000,
    deadAfterMs: 15_000,
    settleTimeoutMs: 600_000,
    logDir: path.join(dataRoot(), "chaos-hosts-logs"),
    log: (line) => console.log(line),
  });
  console.log(`\n${hostsTable(rows)}`);
  for (const row of rows) for (const problem of row.problems) console.log(`  ! ${row.fault}: ${problem}`);
  const passed = rows.every(hostRoundPassed);
  console.log(JSON.stringify({ chaosHosts: passed ? "passed" : "failed", rows }));
  fs.mkdirSync("bench/results", { recursive: true });
  fs.writeFileSync(
    "bench/results/chaos-hosts.json",
    `${JSON.stringify({ at: new Date().toISOString(), rows })}\n`,
  );
  process.exitCode = passed ? 0 : 1;
}

/**
 * The messaging round (messaging.ts): deferred and quiet-hour-held marketing emails while workers
 * are killed. `--messaging N` customers (300; 0 leaves it out). True when it passed.
 */
async function messagingRound(): Promise<boolean> {
  const customers = Number(flag("messaging") ?? 300);
  if (customers <= 0) return true;
  console.log(
    `\nChaos, messaging: ${customers} customers, 3 automations, cap 1 per 16 h, quiet hours 21:00–08:00`,
  );
  const result = await runMessagingChaos({
    customers,
    workers: Math.min(4, Math.max(2, Number(flag("workers") ?? 3))),
    killEveryMs: process.argv.includes("--quick") ? [3_000, 8_000] : [5_000, 14_000],
    logDir: path.join(dataRoot(), "chaos-logs"),
    log: (line) => console.log(line),
  });
  for (const problem of result.problems) console.log(`  ! ${problem}`);
  const passed = messagingPassed(result);
  console.log(JSON.stringify({ chaosMessaging: passed ? "passed" : "failed", ...result }));
  fs.mkdirSync("bench/results", { recursive: true });
  fs.writeFileSync(
    "bench/results/chaos-messaging.json",
    `${JSON.stringify({ at: new Date().toISOString(), ...result })}\n`,
  );
  return passed;
}

async function main(): Promise<void> {
  surviveDatabaseRestarts();
  if (process.argv.includes("--hosts")) return mainHosts();
  // A cluster of its own, which it may restart at will; or DATABASE_URL's server, which it then
  // never restarts (it is someone else's).
  const db = await benchDatabase("chaos", { cluster: "chaos-pg" });
  if (process.argv.includes("--messaging-only")) {
    try {
      process.exitCode = (await messagingRound()) ? 0 : 1;
    } finally {
      await db.drop();
    }
    return;
  }
  const options: ChaosOptions = {
    orders: Number(flag("orders") ?? 1500),
    customers: Number(flag("customers") ?? 1000),
    workers: Math.min(4, Math.max(2, Number(flag("workers") ?? 3))),
    kills: Number(flag("kills") ?? 12),
    // Real minute waits and later steps keep the load going for over two minutes: spread the
    // kills over it, so they land on first legs, resumes and later runs alike.
    killEveryMs: process.argv.includes("--quick") ? [2_000, 6_000] : [5_000, 14_000],
    restartPostgres: db.restart,
    quick: process.argv.includes("--quick"),
    settleTimeoutMs: 600_000,
    logDir: path.join(dataRoot(), "chaos-logs"),
    log: (line) => console.log(line),
  };
  console.log(
    `Chaos: ${2 * (options.orders + options.customers)} runs over ${options.workers} workers, ${options.kills} kills` +
      `${options.restartPostgres ? ", one Postgres restart" : ""}; worker logs in ${options.logDir}`,
  );
  try {
    const result = await runChaos(options);
    console.log(`\nchaos\n${chaosTable(result)}`);
    for (const problem of result.problems) console.log(`  ! ${problem}`);
    const passed = chaosPassed(result) && (await messagingRound());
    console.log(JSON.stringify({ chaos: passed ? "passed" : "failed", ...result }));
    fs.mkdirSync("bench/results", { recursive: true });
    fs.writeFileSync(
      "bench/results/chaos.json",
      `${JSON.stringify({ at: new Date().toISOString(), ...result })}\n`,
    );
    process.exitCode = passed ? 0 : 1;
  } finally {
    await db.drop();
  }
}

main().catch((error: unknown) => {
  console.error("The chaos run could not finish:", error);
  process.exit(1);
});
