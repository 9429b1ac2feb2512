import path from "node:path";
import { build } from "esbuild";
import { inject } from "vitest";

/**
 * The worker and the web server as the tests start them: their own source (`worker/index.ts`,
 * `server/index.ts` and all they import from this project), compiled once per test run by
 * esbuild into one file each, the packages left to Node. `npm start` and `npm run worker` run the
 * same source through tsx, which resolves and compiles each of several hundred files at every
 * start: about 4.5 s of CPU a process against 1.7 for the compiled file, and the suite starts more
 * than a hundred of them (crash tests kill and restart workers again and again).
 */
const ENTRYPOINTS = { worker: "worker/index.ts", server: "server/index.ts" } as const;

export type Entrypoint = keyof typeof ENTRYPOINTS;

/**
 * Compiles the entry points into `dir` (tests/global-setup.ts). `dir` must lie inside the project,
 * so that the compiled files find the packages in its `node_modules`.
 */
export async function compileEntrypoints(dir: string): Promise<void> {
  await build({
    entryPoints: Object.entries(ENTRYPOINTS).map(([out, source]) => ({ out, in: source })),
    outdir: dir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    logLevel: "warning",
  });
}

/**
 * The arguments for `node` that start `entrypoint` (`spawn(process.execPath, entrypointArgs("worker"))`):
 * the compiled file in a test run, the source through tsx elsewhere (a bench).
 */
export function entrypointArgs(entrypoint: Entrypoint): string[] {
  if (!process.env.VITEST) return ["--import", "tsx", path.join(process.cwd(), ENTRYPOINTS[entrypoint])];
  return [path.join(inject("entrypointsDir"), `${entrypoint}.mjs`)];
}
