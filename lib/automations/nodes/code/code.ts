import { syntaxError } from "@/lib/automations/nodes/code/syntax";
import { paramsObject, text } from "../params";
import type { NodeDefinition } from "../types";

export const CODE_SOURCE_MAX_BYTES = 64_000;

const codeParams = paramsObject({
  source: text()
    .refine((source) => source.trim() !== "", "is empty; write the script this step runs")
    .refine((source) => new TextEncoder().encode(source).length <= CODE_SOURCE_MAX_BYTES, {
      message: "is longer than 64 KB",
      abort: true,
    })
    .superRefine((source, ctx) => {
      const problem = syntaxError(source);
      if (problem)
        ctx.addIssue({
          code: "custom",
          message: `has a syntax error on line ${problem.line}: ${problem.message}`,
        });
    }),
});

const EXAMPLE = `// Tag big spenders and score the order
// Reads event, entity and steps; actions.* run after the script returns.
if (entity.total >= 100) {
  actions.tag("big-spender");
}
return { score: entity.total >= 100 ? 2 : 1 };
`;

/** The first comment line names the script on the canvas ("Run code: Score the order"). */
function title(source: string): string | null {
  const first = /^\s*\/\/\s*(.+)$/m.exec(source)?.[1]?.trim();
  if (!first) return null;
  return first.length > 40 ? `${first.slice(0, 39)}…` : first;
}

/**
 * SPEC §2 "Code step": a merchant's script, run in the QuickJS sandbox (nodes/code/).
 * Its `actions.*` are taken after it returns, each as the action node it names; its return
 * value is `{steps.<id>.…}`. The walk plans what follows only once it has run, so a condition
 * after it can read what it returned.
 */
export const codeAction = {
  type: "auto.action.code",
  category: "action",
  // Its script runs in a dry run too, so only an editor may try a flow with one.
  dryRunNeedsEditor: true,
  label: "Run code",
  description:
    "Runs your JavaScript in a sandbox: it reads the record, the event and earlier steps, can tag, note, email, create tasks, send requests and ask for later steps, and what it returns is available to the steps after it.",
  params: codeParams,
  defaultParams: () => ({ source: EXAMPLE }),
  handles: { in: true, out: ["out"] },
  planAfterRun: true,
  outputs: () => [{ path: "*", label: "what the script returned" }],
  summarise: ({ source }) => {
    const name = title(source);
    return name ? `Run code: ${name}` : "Run code";
  },
  paramLabels: { source: "Script" },
  // The dry run runs the script and lists each action it asks for on its own line, after this one.
  describeDryRun: () => ["Would run the script in the sandbox, then take the actions it asks for."],
} satisfies NodeDefinition<typeof codeParams>;
