import type { ModelMessage } from "ai";
import { spendAiCall } from "@/lib/ai/budget";
import { z } from "zod";
import type { Graph } from "@/lib/automations/graph/schema";
import { validate, type ReadyIssue } from "@/lib/automations/review/validate";
import { AppError } from "@/lib/errors";
import { compileFlowSpec } from "./compile";
import { aiConfig, askModel, NOT_CONFIGURED, type AiConfig } from "./provider";
import { retryMessage, systemPrompt } from "./prompt";
import { FlowSpec, flowSpecJsonSchema, LooseFlowSpec } from "./spec";

/**
 * "Describe your automation": a sentence → the model's FlowSpec → a laid-out graph, checked with
 * the editor's own `validate()`. An answer with problems goes back to the model once, with the
 * problems as sentences; whatever comes back second is returned with its ready issues. Nothing is
 * saved or published here: the caller makes a draft of it (or the API hands it back).
 */

export { buildInput } from "./input";

export interface BuildResult {
  /** The FlowSpec's name, for the draft. */
  name: string;
  graph: Graph;
  /** What keeps it from being published; [] when it is ready. */
  readyIssues: ReadyIssue[];
  /** Sentences: what was assumed on the way (defaults filled in, a second attempt, steps left out). */
  notes: string[];
}

interface Attempt {
  result: BuildResult | null;
  issues: ReadyIssue[];
}

/** A zod problem with the answer as a sentence: "steps.1.type: 'x' is not an action Tillflow knows." */
function specIssues(error: z.ZodError): ReadyIssue[] {
  return error.issues.map((issue) => {
    const path = issue.path.map(String).join(".");
    const text = path ? `${path}: ${issue.message}` : issue.message;
    return { message: /[.!?]$/.test(text) ? text : `${text}.` };
  });
}

/** One answer, checked: the FlowSpec, else its loose twin (so a wrong type is an issue, not a loss). */
function check(value: unknown): Attempt {
  const strict = FlowSpec.safeParse(value);
  const parsed = strict.success ? strict : LooseFlowSpec.safeParse(value);
  if (!parsed.success) return { result: null, issues: specIssues(strict.error ?? parsed.error) };
  const compiled = compileFlowSpec(parsed.data);
  // Where the strict schema refused only a type, compiling left that step out and said so, naming
  // the types there are: one sentence per fault.
  const issues = [...compiled.issues, ...validate(compiled.graph)];
  return {
    result: {
      name: parsed.data.name.trim().slice(0, 120),
      graph: compiled.graph,
      readyIssues: issues,
      notes: compiled.notes,
    },
    issues,
  };
}

/** Always something to tell: with nothing assumed, that the settings are the model's own. */
function withNotes(result: BuildResult): BuildResult {
  if (result.notes.length > 0) return result;
  return {
    ...result,
    notes: ["Every setting came from the model's answer; check each step before publishing."],
  };
}

export interface BuildContext {
  /** The shop whose hourly budget of model calls each question spends (lib/ai/budget.ts). */
  tenantId: string;
  timeZone: string;
  now?: Date;
  /** The provider; read from the environment when absent. */
  config?: AiConfig | null;
}

export async function buildFlow(prompt: string, context: BuildContext): Promise<BuildResult> {
  const config = context.config === undefined ? aiConfig() : context.config;
  if (!config) throw new AppError(503, "unavailable", NOT_CONFIGURED);
  const instructions = systemPrompt({ timeZone: context.timeZone, now: context.now ?? new Date() });
  const schema = flowSpecJsonSchema();
  const messages: ModelMessage[] = [{ role: "user", content: prompt }];

  // Each question is counted just before it is asked: a request spends one call, or two.
  await spendAiCall(context.tenantId);
  const first = await askModel(config, instructions, messages, schema);
  const checked = check(first.value);
  if (checked.result && checked.issues.length === 0) return withNotes(checked.result);

  messages.push(
    { role: "assistant", content: JSON.stringify(first.value) },
    { role: "user", content: retryMessage(checked.issues) },
  );
  await spendAiCall(context.tenantId);
  const second = await askModel(config, instructions, messages, schema);
  const again = check(second.value);
  const retried = `The first answer had ${checked.issues.length} problem${checked.issues.length === 1 ? "" : "s"}; the model was asked once more.`;
  if (!again.result) {
    throw new AppError(
      502,
      "provider_error",
      `The AI model's answer was not a flow, twice: ${again.issues
        .slice(0, 3)
        .map((i) => i.message.replace(/\.$/, ""))
        .join("; ")}.`,
      again.issues.map((i) => ({ message: i.message })),
    );
  }
  return withNotes({ ...again.result, notes: [retried, ...again.result.notes] });
}
