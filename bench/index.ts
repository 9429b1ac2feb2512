/**
 * `npm run bench -- <name>`: runs one benchmark (or all with no name) against a fresh database and
 * prints a table plus one JSON line per benchmark (also kept in bench/results/).
 */
import { benchAlerts } from "./alerts";
import { benchAttribution } from "./attribution";
import { benchBacktest } from "./backtest";
import { benchCode } from "./code";
import { benchConnect } from "./connect";
import { benchCustomers } from "./customers";
import { benchEditorJs } from "./editor-js";
import { benchEngine } from "./engine";
import { benchEventWait } from "./event-wait";
import { benchFairness } from "./fairness";
import { benchFanout } from "./fanout";
import { benchFloor } from "./floor";
import { benchHistory } from "./history";
import { benchLive } from "./live";
import { benchResume } from "./resume";
import { benchSignInSoak } from "./sign-in-soak";
import { benchWorkers } from "./workers";

const BENCHES: Record<string, () => Promise<void>> = {
  engine: benchEngine,
  fanout: benchFanout,
  resume: benchResume,
  live: benchLive,
  history: benchHistory,
  "editor-js": benchEditorJs,
  workers: benchWorkers,
  code: benchCode,
  floor: benchFloor,
  "event-wait": benchEventWait,
  connect: benchConnect,
  alerts: benchAlerts,
  backtest: benchBacktest,
  "sign-in-soak": benchSignInSoak,
  fairness: benchFairness,
  customers: benchCustomers,
  attribution: benchAttribution,
};

async function main() {
  // A bench flow's HTTP receivers listen on this machine, which the outbound guard refuses unless listed.
  process.env.HTTP_ACTION_ALLOW ??= "127.0.0.1,localhost";
  // Flags (`--small`) are the benchmarks' own; the rest are names.
  const names = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
  // The soak runs for hours: only when named.
  const chosen = names.length ? names : Object.keys(BENCHES).filter((name) => name !== "sign-in-soak");
  for (const name of chosen) {
    const bench = BENCHES[name];
    if (!bench)
      throw new Error(`Unknown benchmark '${name}'. Choose from: ${Object.keys(BENCHES).join(", ")}.`);
    await bench();
  }
  process.exit(0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
