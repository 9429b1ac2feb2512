import { afterAll, beforeAll, expect, test } from "vitest";
import { Link } from "@/bench/chaos/link";
import { config } from "@/lib/config/config";
import { databaseReachable, probeVerdict, watchDatabase } from "@/lib/db/reachability";
import { until } from "@/tests/helpers/poll";

/**
 * The web server's database watch (lib/db/reachability.ts), run here in the test's process against
 * Postgres through a link the test slows, cuts and closes (bench/chaos/link.ts). Probes every
 * 100 ms, slow past 400 ms, and gives up after 3 slow ones in a row: one slow answer under load
 * keeps the server up; sustained silence, slowness in a row, or a closed connection does not.
 */

const TIMEOUT_MS = 400;
let link: Link;
let stop: () => void;

beforeAll(async () => {
  const db = new URL(config().DATABASE_URL!);
  link = new Link({ host: db.hostname, port: Number(db.port) });
  const viaLink = new URL(db);
  viaLink.host = `127.0.0.1:${await link.listen()}`;
  stop = watchDatabase({ everyMs: 100, timeoutMs: TIMEOUT_MS, slowProbes: 3, url: viaLink.toString() });
});

afterAll(async () => {
  stop?.();
  link?.restore();
  await link?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether the watch said "unreachable" at any moment of `ms`, sampled every 10 ms. */
async function everDown(ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  let down = false;
  while (Date.now() < end) {
    down ||= !databaseReachable();
    await sleep(10);
  }
  return down;
}

const reachableAgain = () =>
  until(databaseReachable, (up) => up, { timeoutMs: 10_000, what: "the watch to find the database again" });

test("one slow probe (a round trip past the timeout, once) keeps the database reachable", async () => {
  // The first probe connects and answers.
  expect(await everDown(500)).toBe(false);
  // 250 ms each way: the probe in flight takes ~500 ms, past its 400 ms; then the link is quick again.
  link.delayMs = 250;
  const watching = everDown(2_000);
  await sleep(300);
  link.delayMs = 0;
  expect(await watching).toBe(false);
});

test("slow probes several times in a row mean unreachable, and a prompt answer brings it back", async () => {
  link.delayMs = 250;
  await until(databaseReachable, (up) => !up, {
    timeoutMs: 5_000,
    what: "the watch to give up after three slow probes in a row",
  });
  link.delayMs = 0;
  await reachableAgain();
});

test("a cut link (silence) is given up on after three timeouts, and healed comes back", async () => {
  expect(await everDown(300)).toBe(false);
  link.cut();
  const cutAt = Date.now();
  await until(databaseReachable, (up) => !up, { timeoutMs: 5_000, what: "the watch to see the cut" });
  expect(Date.now() - cutAt).toBeGreaterThanOrEqual(TIMEOUT_MS * 2);
  link.restore();
  await reachableAgain();
});

test("a closed connection is a cut at once; too many clients is not", async () => {
  expect(probeVerdict(Object.assign(new Error("too many clients already"), { code: "53300" }))).toBe(
    "strike",
  );
  expect(probeVerdict(Object.assign(new Error("canceling statement"), { code: "57014" }))).toBe("strike");
  expect(probeVerdict(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }))).toBe(
    "cut",
  );
  expect(
    probeVerdict(Object.assign(new Error("write CONNECTION_CLOSED"), { code: "CONNECTION_CLOSED" })),
  ).toBe("cut");
  expect(await everDown(300)).toBe(false);
  const closedAt = Date.now();
  await link.close();
  await until(databaseReachable, (up) => !up, { timeoutMs: 5_000, what: "the watch to see the closed link" });
  // Refused and reset connections need no timeouts to wait out.
  expect(Date.now() - closedAt).toBeLessThan(TIMEOUT_MS * 2);
});
