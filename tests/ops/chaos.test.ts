import { expect, test } from "vitest";
import { chaosTable } from "@/bench/chaos/report";
import { runChaos } from "@/bench/chaos/scenario";

// The short run of `npm run chaos` (bench/chaos/): 300 runs over two real worker processes,
// three SIGKILLs with restarts, minute waits and later steps made due at once. Postgres is not
// restarted here: the test cluster is shared by every test file running in parallel (the full
// `npm run chaos` restarts a cluster of its own).
test("300 runs with waits, retries, approvals, later steps and a fan-out survive 3 worker kills: all settle, nothing lost or doubled", async () => {
  const result = await runChaos({
    orders: 90,
    customers: 60,
    workers: 2,
    kills: 3,
    killEveryMs: [2_000, 5_000],
    restartPostgres: null,
    quick: true,
    settleTimeoutMs: 40_000,
    logDir: null,
    log: () => {},
  });
  console.info(`chaos (short)\n${chaosTable(result)}\n${result.problems.map((p) => `  ! ${p}`).join("\n")}`);
  expect(result.problems).toEqual([]);
  expect(result).toMatchObject({
    kills: 3,
    runs: 300,
    unsettled: 0,
    notSucceeded: 0,
    lost: 0,
    duplicated: 0,
    effectsWrong: 0,
    overdueWaits: 0,
  });
  expect(result.maxRecoveryMs).toBeLessThanOrEqual(30_000);
}, 90_000);
