import { spawn } from "node:child_process";
import { expect, test } from "vitest";
import { entrypointArgs } from "@/tests/helpers/entrypoints";

/** Runs an entry point with `env` added; resolves with its exit code and everything it printed. */
function run(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { env: { ...process.env, ...env } });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("exit", (code) => resolve({ code, output }));
  });
}

const WORKER = entrypointArgs("worker");
const CLI = ["bin/tillflow.mjs", "migrate"];
const CONCURRENCY = 'WORKER_CONCURRENCY must be a whole number from 1 to 100,000 (got "abc").\n';
const FORMAT = 'LOG_FORMAT must be "json" or "pretty" (got "xml").\n';

test.each([
  ["the worker", WORKER, { WORKER_CONCURRENCY: "abc" }, CONCURRENCY],
  ["the CLI", CLI, { WORKER_CONCURRENCY: "abc" }, CONCURRENCY],
  ["the worker", WORKER, { LOG_FORMAT: "xml" }, FORMAT],
  ["the CLI", CLI, { LOG_FORMAT: "xml" }, FORMAT],
])(
  "%s refuses to start on a bad value with one sentence naming it (%#)",
  { timeout: 60_000 },
  async (_who, args, env, sentence) => {
    const { code, output } = await run(args, env);
    expect(code).toBe(78);
    expect(output).toBe(sentence);
  },
);

test("a secret's bad value is not printed", { timeout: 60_000 }, async () => {
  const { code, output } = await run(WORKER, { DATABASE_URL: "mysql://root:hunter2@db/shop" });
  expect(code).toBe(78);
  expect(output).toBe("DATABASE_URL must be a postgres:// or postgresql:// URL.\n");
});
