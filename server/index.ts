/**
 * The production web server (`npm start` runs it; so does the Docker image): Next.js for every
 * page and route, except the few hot API routes the server answers itself (direct-routes.ts), with
 * the same handlers. `npm run dev` uses `next dev` alone.
 *
 * Env (lib/config/env.ts, checked before anything loads): PORT (default 3000; every interface, as
 * `next start`), DATABASE_URL (else the embedded database, found or started as instrumentation.ts
 * does for Next), TRUSTED_PROXIES (server/edge.ts).
 * SIGINT or SIGTERM stops taking connections, lets requests in flight finish (at most 10 s) and exits.
 */
import "@/lib/config/check-at-start";
import http from "node:http";
import { config, defaultEnv, setEnv } from "@/lib/config/config";
import { log, withLogContext } from "@/lib/log/logger";
import { closeDb } from "@/lib/db/client";
import { ensureDatabaseUrl } from "@/lib/db/connection";
import { watchDatabase } from "@/lib/db/reachability";
import { directRoute, serveDirect } from "./direct-routes";
import { prepareRequest, startEdge } from "./edge";

const DRAIN_MS = 10_000;

async function main(): Promise<void> {
  if (!config().NODE_ENV) setEnv("NODE_ENV", "production");
  defaultEnv("DB_APPLICATION_NAME", "tillflow-web");
  defaultEnv("DB_STATEMENT_TIMEOUT_MS", "30000");
  const port = config().PORT;
  await ensureDatabaseUrl();
  // A partition from Postgres gets 503s with a sentence, not hung requests (lib/db/reachability.ts).
  watchDatabase();
  // Loaded after NODE_ENV is set: Next.js reads it when it loads.
  const { default: next } = await import("next");
  const app = next({ dev: false, dir: process.cwd(), port });
  await app.prepare();
  const handle = app.getRequestHandler();
  startEdge();
  const server = http.createServer((req, res) => {
    const requestId = prepareRequest(req, res);
    // Every line logged while answering carries the request's id.
    withLogContext({ requestId }, () => {
      const route = directRoute(req);
      if (route) void serveDirect(route, req, res);
      else void handle(req, res);
    });
  });
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => process.exit(0), DRAIN_MS).unref();
    server.close(() => void closeDb().finally(() => process.exit(0)));
    server.closeIdleConnections();
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  server.listen(port, () => log().info({ port }, `Web server listening on port ${port}.`));
}

main().catch((error: unknown) => {
  log().fatal({ err: error }, "The web server could not start.");
  process.exit(1);
});
