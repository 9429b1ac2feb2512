import fs from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import postgres from "postgres";
import type { TestProject } from "vitest/node";
import { createDatabaseIfMissing } from "@/lib/db/connection";
import { dataRoot, databaseUrl, startOrFindEmbedded } from "@/lib/db/embedded";
import { migrateDatabase } from "@/lib/migrate";
import { compileEntrypoints } from "@/tests/helpers/entrypoints";

declare module "vitest" {
  export interface ProvidedContext {
    /** URL of the test server's maintenance database. */
    serverUrl: string;
    /** A migrated database each test file clones. */
    templateDatabase: string;
    /** True when the tests run on the embedded cluster (no DATABASE_URL given). */
    embedded: boolean;
    /** Where the worker and web server the tests start are compiled (tests/helpers/entrypoints.ts). */
    entrypointsDir: string;
  }
}

interface TestDatabase {
  serverUrl: string;
  template: string;
  entrypointsDir: string;
  teardown: () => Promise<void>;
}

/**
 * Starts (or finds) the test cluster under `.data/test-pg`, never the demo shop's, unless
 * `DATABASE_URL` names a server to use instead; then migrates a template database once per run,
 * and compiles the worker and web server the tests start.
 */
async function prepare(): Promise<TestDatabase> {
  let serverUrl: string;
  let stop = async () => {};
  if (process.env.DATABASE_URL) {
    serverUrl = databaseUrl(process.env.DATABASE_URL, "postgres");
  } else {
    const cluster = await startOrFindEmbedded(path.join(dataRoot(), "test-pg"), { disposable: true });
    serverUrl = cluster.serverUrl;
    stop = cluster.stop;
  }
  const template = `tpl_${process.pid}`;
  const entrypointsDir = path.join(process.cwd(), "node_modules/.cache/tillflow-tests", String(process.pid));
  await Promise.all([
    createDatabaseIfMissing(serverUrl, template).then(() =>
      migrateDatabase(databaseUrl(serverUrl, template)),
    ),
    compileEntrypoints(entrypointsDir),
    loadScriptThread(),
  ]);
  const teardown = async () => {
    const sql = postgres(serverUrl, { max: 1, onnotice: () => {} });
    // Test files drop their own databases; this sweeps what a crashed run left behind.
    const leftovers = await sql<{ datname: string }[]>`
      select datname from pg_database where datname like ${`t${process.pid}_%`} or datname = ${template}`;
    for (const { datname } of leftovers)
      await sql.unsafe(`drop database if exists "${datname}" with (force)`);
    await sql.end();
    await stop();
    fs.rmSync(entrypointsDir, { recursive: true, force: true });
  };
  return { serverUrl, template, entrypointsDir, teardown };
}

/**
 * Loads a thread of the script pool once and ends it: tsx compiles the sandbox and the node
 * registry for it and keeps them in its cache, so the threads the tests' processes start load in
 * about half a second rather than several (the compiled worker no longer warms that cache).
 */
async function loadScriptThread(): Promise<void> {
  const thread = new Worker(path.join(process.cwd(), "lib/automations/nodes/code/script-thread.mjs"));
  await new Promise<void>((resolve, reject) => {
    thread.once("message", () => resolve());
    thread.once("error", reject);
  });
  await thread.terminate();
}

/**
 * Vitest calls a global setup once for the root and once for each project (vitest.config.ts), in
 * one process: they share one cluster and template, prepared by the first call and torn down by
 * the last teardown.
 */
const run = globalThis as unknown as {
  __tillflowTestDatabase?: Promise<TestDatabase>;
  __tillflowTestUsers?: number;
};

export default async function setup(project: TestProject) {
  run.__tillflowTestUsers = (run.__tillflowTestUsers ?? 0) + 1;
  const { serverUrl, template, entrypointsDir, teardown } = await (run.__tillflowTestDatabase ??= prepare());
  project.provide("serverUrl", serverUrl);
  project.provide("templateDatabase", template);
  project.provide("embedded", !process.env.DATABASE_URL);
  project.provide("entrypointsDir", entrypointsDir);
  return async () => {
    run.__tillflowTestUsers = (run.__tillflowTestUsers ?? 1) - 1;
    if (run.__tillflowTestUsers === 0) await teardown();
  };
}
