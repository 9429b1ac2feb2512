import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { renderEnvDocs } from "@/scripts/env-docs-render";

/**
 * The only reads of `process.env` outside lib/config, each with its reason. Tests, end-to-end
 * specs and benchmarks are not scanned: they set up the processes they start.
 */
const ALLOWED: Record<string, string> = {
  // Next.js replaces it with a constant at build time; that keeps Node-only code out of the edge bundle.
  "instrumentation.ts": 'process.env.NEXT_RUNTIME === "nodejs"',
  // Sample code for a merchant's own server, shown in the editor as text.
  "components/automations/editor/step-form/triggers/webhook-examples.ts": "process.env.TILLFLOW_SECRET",
};

/** Playwright's config, like the specs it runs, is test setup. */
const SKIPPED = new Set(["playwright.config.ts"]);

const ROOTS = ["app", "components", "lib", "server", "worker", "bin", "scripts"];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx|mjs|js)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe("the environment's documentation and its one reader", () => {
  it("docs/deployment.md's tables and .env.example are what `npm run env:docs` writes", async () => {
    for (const [file, expected] of Object.entries(await renderEnvDocs()))
      expect(fs.readFileSync(file, "utf8"), `${file} is out of date: run \`npm run env:docs\`.`).toBe(
        expected,
      );
  });

  it("no file outside lib/config reads process.env", () => {
    const files = [
      ...ROOTS.flatMap(sourceFiles),
      ...fs.readdirSync(".").filter((name) => /\.(ts|mjs)$/.test(name) && !SKIPPED.has(name)),
    ];
    const offenders = files
      .filter((file) => !file.startsWith(`lib${path.sep}config${path.sep}`))
      .flatMap((file) => {
        const allowed = ALLOWED[file.split(path.sep).join("/")];
        return (
          fs
            .readFileSync(file, "utf8")
            .split("\n")
            .map((line, i) => ({ line, where: `${file}:${i + 1}` }))
            .filter(({ line }) => /process\.env\b|process\[["']env["']\]/.test(line))
            .filter(({ line }) => !(allowed && line.includes(allowed)))
            // A comment may name it (instrumentation.ts explains its exception).
            .filter(({ line }) => !/^\s*(\*|\/\/)/.test(line))
            .map(({ where, line }) => `${where}: ${line.trim()}`)
        );
      });
    expect(offenders, "Read settings through config() (lib/config/config.ts).").toEqual([]);
  });
});
