/**
 * `npm run bench -- sign-in-soak`: the app as `npm start` runs it, left running for hours under
 * light steady traffic with a short database connection lifetime, so its pool is replaced again
 * and again (issue 45: sign-in died 30-60 minutes after the server started, when the first
 * connection reached its lifetime). Meanwhile:
 *
 *   - every minute, the demo admin signs in with a fresh session and opens the dashboard with it;
 *   - every second, an API key lists the automations; every 5 s it sends an event;
 *   - every 15 minutes, every connection of the web server is ended (`pg_terminate_backend`), as
 *     a failover does.
 *
 * Reports sign-ins tried and failed, other requests tried and failed, and the pool replacements
 * the web server logged. Sizes (env): BENCH_SOAK_MINUTES (120), BENCH_SOAK_LIFETIME_SECONDS (300).
 */
import fs from "node:fs";
import postgres from "postgres";
import { config } from "@/lib/config/config";
import { report } from "./harness";
import { startLiveApp, type LiveApp } from "./live-app";

const MINUTES = Number(process.env.BENCH_SOAK_MINUTES ?? 120);
const LIFETIME_SECONDS = process.env.BENCH_SOAK_LIFETIME_SECONDS ?? "300";
const FAILOVER_EVERY_MS = 15 * 60_000;

interface Tally {
  tried: number;
  failed: number;
  lastFailure?: string;
}

const tally = (): Tally => ({ tried: 0, failed: 0 });

async function counted(into: Tally, attempt: () => Promise<string | null>): Promise<void> {
  into.tried++;
  const failure = await attempt().catch((error: unknown) => String(error));
  if (failure) {
    into.failed++;
    into.lastFailure = `${new Date().toISOString()} ${failure}`;
    console.error(`  failed: ${failure}`);
  }
}

/** Signs the demo admin in with a fresh session, then opens the dashboard with that session. */
async function signInAndLook(app: LiveApp): Promise<string | null> {
  const reply = await fetch(`${app.baseUrl}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: app.baseUrl },
    body: JSON.stringify({
      email: "admin@demo.test",
      password: config().TILLFLOW_DEMO_PASSWORD ?? "tillflow-demo",
    }),
  });
  if (reply.status !== 200) return `sign-in answered ${reply.status}: ${await reply.text()}`;
  const cookie = reply.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  const page = await fetch(`${app.baseUrl}/dashboard`, { headers: { cookie }, redirect: "manual" });
  return page.status === 200 ? null : `the dashboard answered ${page.status} to the new session`;
}

async function apiCall(app: LiveApp, init: RequestInit & { path: string }): Promise<string | null> {
  const res = await fetch(`${app.baseUrl}${init.path}`, {
    ...init,
    headers: { authorization: `Bearer ${app.apiKey}`, "content-type": "application/json" },
  });
  await res.arrayBuffer();
  return res.status < 300 ? null : `${init.method ?? "GET"} ${init.path} answered ${res.status}`;
}

async function failover(app: LiveApp): Promise<number> {
  const sql = postgres(app.databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql<{ n: number }[]>`
      select count(*) filter (where pg_terminate_backend(pid, 5000))::int as n from pg_stat_activity
      where application_name = 'tillflow-web'`;
    return row!.n;
  } finally {
    await sql.end();
  }
}

export async function benchSignInSoak(): Promise<void> {
  process.env.DB_MAX_LIFETIME_SECONDS = LIFETIME_SECONDS;
  const app = await startLiveApp();
  // The order the soak's events are about.
  await apiCall(app, {
    path: "/api/v1/entities/order/soak-order",
    method: "PUT",
    body: JSON.stringify({ number: "#soak", status: "pending", total: 25, currency: "EUR", lineItems: [] }),
  });
  const signIns = tally();
  const requests = tally();
  let failovers = 0;
  const started = Date.now();
  const end = started + MINUTES * 60_000;
  console.log(`Soaking for ${MINUTES} min, connections living ${LIFETIME_SECONDS} s.`);
  try {
    let nextSignIn = started;
    let nextEvent = started;
    let nextFailover = started + FAILOVER_EVERY_MS;
    for (let tick = 0; Date.now() < end; tick++) {
      const now = Date.now();
      if (now >= nextSignIn) {
        nextSignIn += 60_000;
        await counted(signIns, () => signInAndLook(app));
        const minute = Math.round((now - started) / 60_000);
        console.log(
          `  ${minute} min: sign-ins ${signIns.tried} (failed ${signIns.failed}), requests ${requests.tried} (failed ${requests.failed})`,
        );
      }
      if (now >= nextFailover) {
        nextFailover += FAILOVER_EVERY_MS;
        failovers++;
        console.log(`  ended ${await failover(app)} web connections`);
      }
      await counted(requests, () => apiCall(app, { path: "/api/v1/automations" }));
      if (now >= nextEvent) {
        nextEvent += 5_000;
        const id = `soak-${tick}`;
        await counted(requests, () =>
          apiCall(app, {
            path: "/api/v1/events",
            method: "POST",
            body: JSON.stringify({ id, type: "order.created", domain: "order", entityId: "soak-order" }),
          }),
        );
      }
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 1_000 - (Date.now() - now))));
    }
  } finally {
    const log = fs.readFileSync(`${app.dataDir}.log`, "utf8");
    await app.stop();
    report("sign-in-soak", {
      minutes: MINUTES,
      connectionLifetimeSeconds: Number(LIFETIME_SECONDS),
      signInsTried: signIns.tried,
      signInsFailed: signIns.failed,
      requestsTried: requests.tried,
      requestsFailed: requests.failed,
      poolReplacements: log.split("the pool was replaced with a fresh one").length - 1,
      failovers,
      lastFailure: signIns.lastFailure ?? requests.lastFailure ?? "none",
    });
  }
}
