import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { registry } from "./registry";

/**
 * A step lives in one folder (STYLE.md 13, docs/adding-a-step.md): its type string is written in
 * its own folder under lib/automations/nodes/ and in the catalog, and nowhere else in the app's
 * source. The validator, the dry run, the settings form and the summaries ask the step's
 * definition; none of them names it. This test reads the source as text and fails on a type string
 * ("auto.action.slack", in quotes) found anywhere else, outside the list below of the places that
 * still do, each with its reason.
 */

const ROOT = path.resolve(import.meta.dirname, "../../..");
const NODES = "lib/automations/nodes/";

/** The source a merchant's app is built from. Tests, docs, benchmarks and scripts may name types. */
const SOURCE_DIRS = ["app", "components", "lib", "worker"];

/** The catalog: the one list of the steps (browser-safe definitions, server-only executors). */
const CATALOG = new Set([
  `${NODES}registry.ts`,
  `${NODES}executors.ts`,
  // `effectiveDomainIn`: a schedule with an audience starts a run per customer.
  `${NODES}catalog.ts`,
]);

/**
 * Files that build example graphs out of steps, which is naming them by right: a seed, a template
 * to start from, a built-in automation, an example in the API's contract.
 */
const EXAMPLES: Record<string, string> = {
  "lib/automations/lifecycle/templates.ts": "the templates a new automation starts from",
  "lib/automations/schedules/builtins.ts": "the built-in automations' graphs (platform jobs)",
  "lib/api/contract/automations.ts": "an example body in the API's contract",
};

/**
 * What still names a step's type outside its folder, each with its reason: files on a floor below
 * the steps' (they may not import a step's folder, where its type is written) and SQL that reads
 * stored rows by type. Everything else asks the step's definition (a hook) or imports its type
 * from the step's folder. The list can only shrink (a file here that names no type any more fails
 * below).
 */
const REMAINING: Record<string, string> = {
  // Below lib/automations' floor (lib/README.md): they may not import a step's folder.
  "lib/credentials/externalise.ts":
    "credentials (below automations): secrets typed into a webhook or an HTTP step become credentials",
  "lib/credentials/move-secrets.ts":
    "credentials (below automations), SQL: HTTP deliveries' secrets moved to credentials",
  "lib/entities/activity.ts":
    "entities (below automations), SQL: a record's activity, the tags and notes steps added",
  // On the steps' own floor or below (lib/automations/README.md): they may not import a step's folder.
  "lib/automations/work/outbox.ts": "work (the steps' floor): HTTP deliveries in flight, read by their type",
  "lib/automations/store/partitions.ts":
    "store (below the steps), SQL: the retention a purge step of the built-in automation sets",
  // SQL: the statement reads stored step rows by their type, written in the statement.
  "lib/automations/insights/messages.ts": "SQL: the marketing messages sent (email, HTTP to a customer)",
};

function sourceFiles(): string[] {
  return SOURCE_DIRS.flatMap((dir) =>
    fs
      .readdirSync(path.join(ROOT, dir), { recursive: true, encoding: "utf8" })
      .map((file) => path.posix.join(dir, file.split(path.sep).join("/"))),
  ).filter(
    (file) =>
      /\.(ts|tsx|mjs|js)$/.test(file) &&
      !/\.(test|fixtures)\.tsx?$/.test(file) &&
      !file.includes("node_modules") &&
      fs.statSync(path.join(ROOT, file)).isFile(),
  );
}

function allowed(file: string): boolean {
  return CATALOG.has(file) || Object.hasOwn(EXAMPLES, file) || Object.hasOwn(REMAINING, file);
}

/** The type strings a text names, in quotes: "auto.action.slack" or 'auto.action.slack'. */
function typesNamed(text: string, types: readonly string[]): string[] {
  return types.filter((type) => text.includes(`"${type}"`) || text.includes(`'${type}'`));
}

/** `lib/automations/nodes/slack/slack.ts` → `slack`; a file at the nodes root has no folder. */
function stepFolder(file: string): string | null {
  if (!file.startsWith(NODES)) return null;
  const [folder, ...rest] = file.slice(NODES.length).split("/");
  return rest.length > 0 && folder ? folder : null;
}

describe("a step lives in one folder", () => {
  const types = registry.all().map((definition) => definition.type);
  const texts = new Map(sourceFiles().map((file) => [file, fs.readFileSync(path.join(ROOT, file), "utf8")]));

  // Each type's folder: where its definition writes it (the catalog and the listed files aside).
  const homes = new Map<string, Set<string>>(types.map((type) => [type, new Set()]));
  for (const [file, text] of texts) {
    const folder = stepFolder(file);
    if (folder === null || allowed(file)) continue;
    for (const type of typesNamed(text, types)) homes.get(type)!.add(folder);
  }

  it("writes each step's type in one folder of lib/automations/nodes/", () => {
    const notInOne = [...homes].filter(([, folders]) => folders.size !== 1);
    expect(notInOne.map(([type, folders]) => `${type}: ${[...folders].join(", ") || "no folder"}`)).toEqual(
      [],
    );
  });

  it("names a step's type nowhere else in the app's source", () => {
    const strays: string[] = [];
    for (const [file, text] of texts) {
      if (allowed(file)) continue;
      const folder = stepFolder(file);
      for (const type of typesNamed(text, types))
        if (folder === null || !homes.get(type)!.has(folder)) strays.push(`${file}: "${type}"`);
    }
    expect(strays).toEqual([]);
  });

  it("lists only files that still name a step's type", () => {
    const listed = [...CATALOG, ...Object.keys(EXAMPLES), ...Object.keys(REMAINING)];
    // A listed file that is gone (moved or deleted) is not held against the list; one that stays
    // but no longer names a type should leave it.
    const stale = listed.filter(
      (file) => texts.has(file) && typesNamed(texts.get(file)!, types).length === 0,
    );
    expect(stale).toEqual([]);
  });
});
