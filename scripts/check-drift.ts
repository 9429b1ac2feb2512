/**
 * Fails when the schema in `lib/db/schema` has changes that no committed migration captures:
 * runs `drizzle-kit generate` into a scratch copy of `drizzle/` and checks it adds nothing.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

// drizzle-kit resolves --out relative to the project, so the scratch copy lives in .data/ (ignored by git).
fs.mkdirSync(".data", { recursive: true });
const scratch = path.relative(process.cwd(), fs.mkdtempSync(path.join(".data", "drift-")));
fs.cpSync("drizzle", scratch, { recursive: true });
const before = fs.readdirSync(scratch).sort();
const result = spawnSync(
  process.execPath,
  [
    "node_modules/drizzle-kit/bin.cjs",
    "generate",
    "--dialect",
    "postgresql",
    "--schema",
    "./lib/db/schema/index.ts",
    "--out",
    scratch,
  ],
  { encoding: "utf8" },
);
const after = fs.readdirSync(scratch).sort();
fs.rmSync(scratch, { recursive: true, force: true });
if (result.status !== 0 || /error/i.test(result.stderr)) {
  console.error(result.stdout, result.stderr);
  process.exit(1);
}
const added = after.filter((f) => !before.includes(f));
if (added.length > 0) {
  console.error(
    `Schema drift: drizzle-kit would generate ${added.join(", ")}. Run \`npm run db:generate\` and commit it.`,
  );
  process.exit(1);
}
console.log("No schema drift: committed migrations match lib/db/schema.");
