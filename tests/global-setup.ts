import path from "node:path";
import postgres from "postgres";
import type { TestProject } from "vitest/node";
import { createDatabaseIfMissing } from "@/lib/db/connection";
import { dataRoot, databaseUrl, startOrFindEmbedded } from "@/lib/db/embedded";
import { migrateDatabase } from "@/lib/migrate";

declare module "vitest" {
  export interface ProvidedContext {
    /** URL of the test server's maintenance database. */
    serverUrl: string;
    /** A migrated database each test file clones. */
    templateDatabase: string;
    /** True when the tests run on the embedded cluster (no DATABASE_URL given). */
    embedded: boolean;
  }
}

/**
 * Starts (or finds) the test cluster under `.data/test-pg`, never the demo shop's, unless
 * `DATABASE_URL` names a server to use instead; then migrates a template database once per run.
 */
export default async function setup(project: TestProject) {
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
  await createDatabaseIfMissing(serverUrl, template);
  await migrateDatabase(databaseUrl(serverUrl, template));
  project.provide("serverUrl", serverUrl);
  project.provide("templateDatabase", template);
  project.provide("embedded", !process.env.DATABASE_URL);

  return async () => {
    const sql = postgres(serverUrl, { max: 1, onnotice: () => {} });
    // Test files drop their own databases; this sweeps what a crashed run left behind.
    const leftovers = await sql<{ datname: string }[]>`
      select datname from pg_database where datname like ${`t${process.pid}_%`} or datname = ${template}`;
    for (const { datname } of leftovers)
      await sql.unsafe(`drop database if exists "${datname}" with (force)`);
    await sql.end();
    await stop();
  };
}
