import { afterAll, expect } from "vitest";

// Files of the "shared" project (vitest.config.ts) run one after another in the same process: an
// environment variable one of them set would change the next one's configuration. The config sends
// files that visibly write the environment to a process of their own; this catches one that does
// it another way (through a helper), names the variables, and puts them back.
const before = { ...process.env };
// The same for the process-wide state our modules keep on globalThis (`__tillflow…`: caches, the
// database watch's verdict, counters): what this file made goes with it, as its process would.
// The pool is the exception: tests/setup-db.ts closes it.
const globalsBefore = new Set(Object.keys(globalThis));

afterAll(() => {
  const state = globalThis as unknown as Record<string, unknown>;
  for (const key of Object.keys(state))
    if (key.startsWith("__tillflow") && key !== "__tillflowDb" && !globalsBefore.has(key)) delete state[key];
  const changed = Object.keys({ ...before, ...process.env }).filter(
    (name) => name !== "DATABASE_URL" && before[name] !== process.env[name],
  );
  for (const name of changed) {
    if (before[name] === undefined) delete process.env[name];
    else process.env[name] = before[name];
  }
  expect(
    changed,
    "this file changed the environment: give it a process of its own (vitest.config.ts)",
  ).toEqual([]);
});
