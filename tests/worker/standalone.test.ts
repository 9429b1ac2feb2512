import { spawn } from "node:child_process";
import crypto from "node:crypto";
import postgres from "postgres";
import { afterAll, expect, inject, test } from "vitest";
import { createDatabaseIfMissing } from "@/lib/db/connection";
import { databaseUrl } from "@/lib/db/embedded";

// `tillflow worker` alone against a DATABASE_URL, as on a worker-only machine: an empty database
// of its own (not the file's cloned one), so the schema starts behind.
const serverUrl = inject("serverUrl");
const name = `standalone_${crypto.randomBytes(4).toString("hex")}`;
const url = databaseUrl(serverUrl, name);

afterAll(async () => {
  const sql = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await sql.unsafe(`drop database if exists "${name}" with (force)`);
  await sql.end();
});

/** Runs `tillflow worker …`; once it says it is running, SIGTERM. Resolves with its exit and output. */
function runWorker(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["bin/tillflow.mjs", "worker", ...args], {
      env: { ...process.env, DATABASE_URL: url, TILLFLOW_MIGRATE: "" },
    });
    let output = "";
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("is running")) child.kill("SIGTERM");
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    child.on("exit", (code) => resolve({ code, output }));
  });
}

test(
  "a worker against a DATABASE_URL refuses a schema behind its code, and migrates only when told",
  { timeout: 90_000 },
  async () => {
    await createDatabaseIfMissing(serverUrl, name);

    const refused = await runWorker([]);
    expect(refused.code).toBe(2);
    expect(refused.output).toMatch(
      /The database schema is behind this code: \d+ migrations not applied \(0000_foundation, /,
    );
    expect(refused.output).toContain("Run `tillflow migrate` against this DATABASE_URL first");
    // Nothing was created: it did not migrate, and no embedded database was started either.
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    const [before] = await sql<
      { found: boolean }[]
    >`select to_regclass('public.automation_runs') is not null as found`;
    expect(before!.found).toBe(false);

    const migrated = await runWorker(["--migrate"]);
    expect(migrated.output).toContain("is running");
    expect(migrated.output).toContain("finishing running jobs");
    expect(migrated.code).toBe(0);

    // Up to date now: a plain worker starts.
    const plain = await runWorker([]);
    expect(plain.code).toBe(0);
    const [heartbeats] = await sql<
      { n: number }[]
    >`select count(*)::int as n from worker_heartbeats where stopped_at is not null`;
    expect(heartbeats!.n).toBe(2);
    await sql.end();
  },
);
