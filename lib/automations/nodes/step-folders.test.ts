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
 * Logic that still branches on a step's type outside its folder: what remains of issue 48 item 2
 * after the validator, the dry run's sentences, the param labels and the checks moved into the
 * steps. Each is a hook a step's definition could answer; until then it is listed here, so the
 * list can only shrink (a file here that names no type any more fails below).
 */
const REMAINING: Record<string, string> = {
  // The code step's own list of the actions a script may call (`actions.tag(…)` → add_tag).
  "lib/automations/nodes/code/script-actions.ts": "the code step's list of the actions a script may ask for",
  // The engine's hot path and floor 1 (graph/) may not import the steps' definitions.
  "lib/automations/engine/later.ts": "engine: finds the Later trigger a later step starts at",
  "lib/automations/engine/trigger-payload.ts": "engine: a Later trigger's payload without a record",
  "lib/automations/engine/touches.ts": "engine hot path: a Split's step (SPLIT_TYPE)",
  "lib/automations/graph/later-steps.ts": "graph (floor 1, below the steps): the Later triggers' step names",
  "lib/automations/runs/try-later.ts": "Try it later: finds the Later trigger of a step name",
  "lib/automations/dry-run/effect.ts": "dry run: an email's rendered body, an AI step asks nothing",
  "lib/automations/dry-run/start.ts": "dry run: only editors may dry-run a code step",
  "lib/automations/lifecycle/save-draft.ts": "saving a draft: a webhook trigger's token",
  "lib/automations/lifecycle/schedule-sync.ts": "publishing: a schedule trigger's fire times",
  "lib/automations/work/outbox.ts": "HTTP deliveries in flight (outbox)",
  // In SQL: the statements read stored step rows and graphs by their type.
  "lib/automations/insights/messages.ts": "SQL: the marketing messages sent (email, HTTP to a customer)",
  "lib/automations/store/partitions.ts": "SQL: the retention a purge step of the built-in automation sets",
  "lib/automations/performance/report.ts": "performance report: an HTTP step's label, a Split's branches",
  "lib/credentials/externalise.ts": "secrets typed into a webhook or an HTTP step become credentials",
  "lib/credentials/move-secrets.ts": "HTTP deliveries' secrets moved to credentials",
  "lib/entities/activity.ts": "a record's activity: the tags and notes steps added",
  "components/automations/editor/state/use-autosave.ts": "editor: secrets typed into a webhook or HTTP step",
  "components/automations/editor/header/edit-controls.tsx": "editor: the schedule trigger's Run now",
  "components/automations/editor/panel/step-panel.tsx": "editor: the schedule trigger's preview",
  "components/automations/editor/canvas/palette-groups.ts": "editor: the Later action shown under Timing",
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
