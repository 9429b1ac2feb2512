import { afterAll, expect } from "vitest";

// Files of the "shared" project (vitest.config.ts) run one after another in the same process: an
// environment variable one of them set would change the next one's configuration. The config sends
// files that visibly write the environment to a process of their own; this catches one that does
// it another way (through a helper), names the variables, and puts them back.
const before = { ...process.env };

afterAll(() => {
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
