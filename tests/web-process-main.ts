/**
 * The child of tests/web-process.ts: the production web server's process (server/index.ts) with
 * its direct routes, minus Next.js's router, which needs a `next build`. The routes the tests
 * measure are the same route handler modules under app/ that Next.js would run, served by the
 * same `serveDirect` the production server uses for its hot routes; only Next's request pipeline
 * is missing. So a script run by a dry run runs in this process's script pool, as it would in
 * production, and a blocked event loop here delays `GET /api/health` here.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { GET as health } from "@/app/api/health/route";
import { POST as dryRun } from "@/app/api/v1/automations/[id]/dry-run/route";
import { MAX_BATCH_BYTES } from "@/lib/api/route";
import { directRoute, serveDirect } from "@/server/direct-routes";

type Served = Parameters<typeof serveDirect>[0];

/** `METHOD /path` patterns → the app route handler, given the path's params. */
const ROUTES: { method: string; path: RegExp; serve: (params: Record<string, string>) => Served }[] = [
  {
    method: "GET",
    path: /^\/api\/health$/,
    serve: () => ({ handler: (req) => health(req), maxBytes: 0 }),
  },
  {
    method: "POST",
    path: /^\/api\/v1\/automations\/(?<id>[^/]+)\/dry-run$/,
    serve: (params) => ({
      handler: (req) => dryRun(req, { params: Promise.resolve({ id: params.id! }) }),
      maxBytes: MAX_BATCH_BYTES,
    }),
  },
];

function routeFor(req: http.IncomingMessage): Served | undefined {
  const direct = directRoute(req);
  if (direct) return direct;
  const pathname = (req.url ?? "/").split("?")[0]!;
  for (const route of ROUTES) {
    const match = req.method === route.method ? route.path.exec(pathname) : null;
    if (match) return route.serve(match.groups ?? {});
  }
  return undefined;
}

(process.env as Record<string, string | undefined>).NODE_ENV ??= "production";
const server = http.createServer((req, res) => {
  const route = routeFor(req);
  if (route) void serveDirect(route, req, res);
  else res.writeHead(404, { "content-type": "text/plain" }).end("Not served by the test web process.");
});
server.listen(0, "127.0.0.1", () => {
  // The parent reads the port from this line.
  console.log(`listening ${(server.address() as AddressInfo).port}`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
