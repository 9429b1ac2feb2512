import { sql } from "drizzle-orm";
import { z } from "zod";
import { aiConfig, askForObject, ModelError, type AiConfig, type Asker } from "@/lib/ai/model";
import { getDb } from "@/lib/db/client";
import { consume } from "@/lib/rate-limit";
import { ActionError, type ActionContext, type ActionOutput, type OutsideExecutor } from "../executor";
import {
  AI_ANSWER_MAX_BYTES,
  AI_NOT_SET_UP,
  AI_PROMPT_MAX_BYTES,
  DEFAULT_MAX_WORDS,
  type AiParams,
  type AiTask,
  type FieldKind,
} from "./ai";
import { config } from "@/lib/config/config";

/**
 * The AI step's question (SPEC §2 "AI step"), asked of the shop's configured model outside the
 * phase's transaction. Exactly once: the checked answer is written to the step's delivery
 * (`action_deliveries.response`, still `sending`) the moment it arrives, in a statement of its
 * own, so a leg re-claimed after a crash — before the engine recorded the outcome — reads it back
 * here and never asks again. Only a crash between the model's answer and that statement asks
 * twice. Limited per shop per hour (`AI_CALLS_PER_HOUR`, default 1,000) in `rate_limit_windows`.
 */

const aiRequest = z.object({
  task: z.enum(["classify", "extract", "write"]),
  prompt: z.string(),
  categories: z.array(z.string()).nullable(),
  fields: z.record(z.string(), z.enum(["string", "number", "boolean"])).nullable(),
  maxWords: z.number().nullable(),
});
export type AiRequest = z.infer<typeof aiRequest>;

export const AI_STEP: Asker = {
  log: "AI step",
  askAdmin: "ask your administrator to check the AI model's settings (AI_BASE_URL, AI_MODEL, AI_API_KEY)",
};

export const DEFAULT_AI_CALLS_PER_HOUR = 1_000;

/** Calls per shop per hour: `AI_CALLS_PER_HOUR`, default 1,000; 0 turns the limit off. */
export function aiCallsPerHour(): number {
  return config().AI_CALLS_PER_HOUR;
}

function bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

function kb(n: number): string {
  return `${(n / 1024).toFixed(1).replace(/\.0$/, "")} KB`;
}

function quoted(value: unknown): string {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  const flat = (text ?? "nothing").replace(/\s+/g, " ");
  return `'${flat.length > 80 ? `${flat.slice(0, 79)}…` : flat}'`;
}

/** The request a step's params become: the prompt with its tokens filled in. */
export function aiRequestOf(params: AiParams, render: (template: string) => string): AiRequest {
  return {
    task: params.task,
    prompt: render(params.prompt).trim(),
    categories: params.task === "classify" ? (params.categories ?? []) : null,
    fields: params.task === "extract" ? (params.fields ?? {}) : null,
    maxWords: params.task === "write" ? (params.maxWords ?? DEFAULT_MAX_WORDS) : null,
  };
}

/** Why a prepared request cannot be asked, or null: an empty or too long prompt. */
export function checkAiRequest(request: AiRequest): string | null {
  if (!request.prompt) return "The prompt is empty once its tokens are filled in; there is nothing to ask.";
  const size = bytes(request.prompt);
  if (size > AI_PROMPT_MAX_BYTES)
    return `The prompt is ${kb(size)} once its tokens are filled in; an AI step's prompt can be at most 8 KB. Use fewer or shorter values.`;
  return null;
}

const KIND_SCHEMAS: Record<FieldKind, z.ZodType> = {
  string: z.string(),
  number: z.number(),
  boolean: z.boolean(),
};

/** The answer each task accepts (zod) and the instructions that ask for it. */
export function answerSchema(request: AiRequest): z.ZodType<Record<string, unknown>> {
  switch (request.task) {
    case "classify":
      return z.object({ category: z.string() });
    case "extract":
      return z.object(
        Object.fromEntries(
          Object.entries(request.fields ?? {}).map(([name, kind]) => [name, KIND_SCHEMAS[kind].nullable()]),
        ),
      );
    case "write":
      return z.object({ text: z.string() });
  }
}

function jsonSchemaOf(request: AiRequest): Record<string, unknown> {
  const properties: Record<string, unknown> =
    request.task === "classify"
      ? { category: { type: "string", enum: request.categories ?? [] } }
      : request.task === "extract"
        ? Object.fromEntries(
            Object.entries(request.fields ?? {}).map(([name, kind]) => [name, { type: [kind, "null"] }]),
          )
        : { text: { type: "string" } };
  return {
    type: "object",
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  };
}

const INSTRUCTIONS: Record<AiTask, (request: AiRequest) => string> = {
  classify: (r) =>
    `You sort a shop's messages and records into categories. Answer with a JSON object {"category": "..."} whose category is exactly one of: ${(r.categories ?? []).map((c) => JSON.stringify(c)).join(", ")}. Nothing else.`,
  extract: (r) =>
    `You pull facts out of a shop's messages and records. Answer with a JSON object with exactly these keys: ${Object.entries(
      r.fields ?? {},
    )
      .map(([name, kind]) => `"${name}" (${kind})`)
      .join(", ")}. Use null for a value the text does not give. Nothing else.`,
  write: (r) =>
    `You write short texts for a shop. Answer with a JSON object {"text": "..."}; the text has at most ${r.maxWords ?? DEFAULT_MAX_WORDS} words. Nothing else.`,
};

function words(text: string): string[] {
  return text.trim().split(/\s+/).filter(Boolean);
}

/**
 * The model's answer checked against the step: a category must be one of the step's (compared
 * without regard to case, and handed on as the step spells it); a text longer than `maxWords` is
 * cut to its first `maxWords` words (and says so). Throws the sentence for anything else.
 */
export function checkAnswer(request: AiRequest, value: Record<string, unknown>): ActionOutput {
  switch (request.task) {
    case "classify": {
      const answered = String(value.category).trim();
      const match = (request.categories ?? []).find((c) => c.toLowerCase() === answered.toLowerCase());
      if (!match)
        throw new ActionError(
          `The AI model answered ${quoted(answered)}, which is not one of this step's categories (${(request.categories ?? []).join(", ")}).`,
          { answer: value },
          null,
        );
      return { category: match };
    }
    case "extract":
      return Object.fromEntries(Object.keys(request.fields ?? {}).map((name) => [name, value[name] ?? null]));
    case "write": {
      const all = words(String(value.text));
      const max = request.maxWords ?? DEFAULT_MAX_WORDS;
      return all.length > max
        ? { text: all.slice(0, max).join(" "), cutFromWords: all.length }
        : { text: String(value.text).trim() };
    }
  }
}

function refusedAnswer(request: AiRequest) {
  return (answer: unknown, error: z.ZodError): string => {
    const problem = error.issues[0];
    const where = problem?.path.length ? problem.path.map(String).join(".") : "the answer";
    return `The AI model's answer did not fit this step (${where}: ${problem?.message ?? "not understood"}); it answered ${quoted(answer)}.${request.task === "extract" ? " Check the fields' kinds." : ""}`;
  };
}

/** Where this step's answer is kept between the model and the engine's record of the outcome. */
function deliveryOf(ctx: ActionContext) {
  return sql`tenant_id = ${ctx.tenantId} and run_id = ${ctx.runId} and node_id = ${ctx.nodeId} and leg = ${ctx.leg}`;
}

/** The answer an earlier attempt of this very delivery recorded before it was cut short, if any. */
async function recordedAnswer(ctx: ActionContext): Promise<ActionOutput | null> {
  const [row] = await getDb().execute<{ answer: Record<string, unknown> | null }>(
    sql`select response -> 'answer' as answer from action_deliveries
        where ${deliveryOf(ctx)} and status = 'sending'`,
  );
  return row?.answer && typeof row.answer === "object" ? row.answer : null;
}

async function recordAnswer(ctx: ActionContext, answer: ActionOutput): Promise<void> {
  await getDb().execute(
    sql`update action_deliveries set response = ${JSON.stringify({ answer })}::jsonb
        where ${deliveryOf(ctx)} and status = 'sending'`,
  );
}

/**
 * Counts one question against the shop's hourly allowance; past it, the sentence. The AI step's
 * runs and the editor's "Try with the model" share the count.
 */
export async function takeAiCall(tenantId: string, now = Date.now()): Promise<string | null> {
  const max = aiCallsPerHour();
  const decision = await consume(`ai-step:${tenantId}`, { max, windowSeconds: 3600 }, now);
  if (decision.allowed) return null;
  const minutes = Math.max(1, Math.ceil(decision.retryAfterSeconds / 60));
  return `This shop has used all ${max.toLocaleString("en-US")} of its AI questions for this hour, so the model was not asked; the count starts again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

/**
 * Asks the model once and checks the answer: the output a step records, or an ActionError
 * (transient for 429, 5xx and no answer).
 */
export async function askAi(request: AiRequest, config: AiConfig): Promise<ActionOutput> {
  let value: Record<string, unknown>;
  try {
    ({ value } = await askForObject(config, {
      instructions: INSTRUCTIONS[request.task](request),
      prompt: request.prompt,
      schema: answerSchema(request),
      jsonSchema: jsonSchemaOf(request),
      name: request.task === "classify" ? "Category" : request.task === "extract" ? "Fields" : "Text",
      asker: AI_STEP,
      refused: refusedAnswer(request),
    }));
  } catch (error) {
    if (error instanceof ModelError) throw new ActionError(error.message, {}, error.transient ? {} : null);
    throw error;
  }
  const output = checkAnswer(request, value);
  const size = bytes(JSON.stringify(output));
  if (size > AI_ANSWER_MAX_BYTES)
    throw new ActionError(
      `The AI model's answer is ${kb(size)}; an AI step's answer can be at most 4 KB. Ask for less in the prompt.`,
      {},
      null,
    );
  return output;
}

export const aiExecutor: OutsideExecutor<AiParams, AiRequest> = {
  effect: "outside",
  request: aiRequest,
  prepare: (params, ctx) => aiRequestOf(params, (template) => ctx.render(template)),
  check: checkAiRequest,
  async preflight() {
    return aiConfig() ? null : AI_NOT_SET_UP;
  },
  async send(request, ctx) {
    const recorded = await recordedAnswer(ctx);
    if (recorded) return { ...recorded, answerRecordedBefore: true };
    const config = aiConfig();
    if (!config) throw new ActionError(AI_NOT_SET_UP, {}, null);
    const refused = await takeAiCall(ctx.tenantId);
    if (refused) throw new ActionError(refused, {}, null);
    const output = await askAi(request, config);
    await recordAnswer(ctx, output);
    return output;
  },
  resendReason:
    "Taken up again after an interruption; an answer the model had already given is used, not asked for again.",
  // What follows the step is planned once it has answered, so a condition can branch on it.
  followUp: (output) => ({
    output: Object.fromEntries(
      Object.entries(output).filter(
        ([key]) => key !== "answerRecordedBefore" && key !== "resentAfterInterruption",
      ),
    ),
    actions: [],
  }),
};
