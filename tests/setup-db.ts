import crypto from "node:crypto";
import postgres from "postgres";
import { afterAll, inject } from "vitest";
import { closeDb } from "@/lib/db/client";
import { createDatabaseIfMissing } from "@/lib/db/connection";
import { databaseUrl } from "@/lib/db/embedded";

// Each test file gets its own database, cloned from the migrated template: files never see each
// other's rows and can run in parallel.
const serverUrl = inject("serverUrl");
const name = `t${process.ppid}_${crypto.randomBytes(5).toString("hex")}`;
await createDatabaseIfMissing(serverUrl, name, inject("templateDatabase"));
process.env.DATABASE_URL = databaseUrl(serverUrl, name);
// The tests' HTTP receivers listen on this machine, which the outbound guard refuses unless listed
// (lib/net/guard.ts); worker processes the tests start inherit it. Guard tests clear it themselves.
process.env.HTTP_ACTION_ALLOW ??= "127.0.0.1,localhost";

afterAll(async () => {
  await closeDb();
  const sql = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await sql.unsafe(`drop database if exists "${name}" with (force)`);
  await sql.end();
});
