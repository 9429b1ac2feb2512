import { z } from "zod";
import { integer, line, paramsObject, text } from "../params";
import { retryParams } from "../retry";
import type { NodeDefinition, StepOutput } from "../types";
import { excerpt as cut, text as shown } from "../sentences";

/** A prompt after its tokens are filled in is at most this many bytes (SPEC §2 "AI step"). */
export const AI_PROMPT_MAX_BYTES = 8_192;
/** An answer is at most this many bytes of JSON. */
export const AI_ANSWER_MAX_BYTES = 4_096;
export const AI_TASKS = ["classify", "extract", "write"] as const;
export type AiTask = (typeof AI_TASKS)[number];
export const FIELD_KINDS = ["string", "number", "boolean"] as const;
export type FieldKind = (typeof FIELD_KINDS)[number];
export const DEFAULT_MAX_WORDS = 150;

/** The ready issue of an AI step, and its failure, while the server has no model set up. */
export const AI_NOT_SET_UP =
  "AI is not set up for this shop: ask your administrator to set AI_BASE_URL and AI_MODEL (and AI_API_KEY if the model needs one) on the server.";

const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,39}$/;

const categories = z
  .array(
    line(100).refine((value) => !value.includes(","), "cannot contain a comma"),
    {
      error: "must be a list of categories",
    },
  )
  .min(2, "needs at least 2 categories to choose from")
  .max(50, "can have at most 50 categories")
  .refine(
    (list) => new Set(list.map((c) => c.toLowerCase())).size === list.length,
    "has the same category twice",
  );

const fields = z
  .record(z.string(), z.enum(FIELD_KINDS, { error: "must be 'string', 'number' or 'boolean'" }), {
    error: "must name each field with its kind: string, number or boolean",
  })
  .superRefine((value, ctx) => {
    const names = Object.keys(value);
    if (names.length < 1) ctx.addIssue({ code: "custom", message: "needs at least 1 field to extract" });
    if (names.length > 30) ctx.addIssue({ code: "custom", message: "can have at most 30 fields" });
    for (const name of names)
      if (!FIELD_NAME.test(name))
        ctx.addIssue({
          code: "custom",
          path: [name],
          message: "is not a field name: use letters, digits and _, starting with a letter, at most 40",
        });
  });

const aiParams = paramsObject({
  task: z.enum(AI_TASKS, { error: "must be 'classify', 'extract' or 'write'" }).default("classify"),
  prompt: text()
    .regex(/\S/, "cannot be empty; say what the model should look at")
    .max(AI_PROMPT_MAX_BYTES, "is longer than 8,192 characters"),
  /** classify: the answers allowed, 2 to 50. */
  categories: categories.optional(),
  /** extract: each field's name and kind, 1 to 30. */
  fields: fields.optional(),
  /** write: at most this many words; a longer text is cut at the last whole word. */
  maxWords: integer(1, 1000).optional(),
  /** When the model is busy (429), errs (5xx) or does not answer. Default: 3 attempts. */
  retry: retryParams.optional(),
}).superRefine((params, ctx) => {
  if (params.task === "classify" && !params.categories)
    ctx.addIssue({ code: "custom", path: ["categories"], message: "are required to sort into" });
  if (params.task === "extract" && !params.fields)
    ctx.addIssue({ code: "custom", path: ["fields"], message: "are required: name each field to pull out" });
});

export type AiParams = z.infer<typeof aiParams>;

function list(values: readonly string[], max = 3): string {
  const shown = values.slice(0, max).join(", ");
  return values.length > max ? `${shown}, …` : shown;
}

/** What each task hands on as `{steps.<id>.…}`. */
export function aiOutputs(params: Pick<AiParams, "task" | "fields">): StepOutput[] {
  switch (params.task) {
    case "classify":
      return [{ path: "category", label: "the category the model chose" }];
    case "extract":
      return Object.keys(params.fields ?? {}).map((name) => ({
        path: name,
        label: `the ${name} the model pulled out`,
      }));
    case "write":
      return [{ path: "text", label: "the text the model wrote" }];
  }
}

/**
 * SPEC §2 "AI step": one structured question to the shop's configured model (AI_BASE_URL,
 * AI_MODEL): sort into categories, pull out fields, or write a short text. The answer is checked
 * and recorded as the step's output, once; a replay reads it and never asks again.
 */
export const aiAction = {
  type: "auto.action.ai",
  category: "action",
  label: "Ask AI",
  description:
    "Asks the shop's AI model one question about the run: sort into one of your categories, pull out named fields, or write a short text. The answer is available to the steps after it (a condition can branch on the category). Needs an AI model set up by your administrator.",
  params: aiParams,
  defaultParams: () => ({
    task: "classify" as const,
    prompt: "",
    categories: ["refund", "damaged", "other"],
  }),
  handles: { in: true, out: ["out"] },
  templated: ["prompt"],
  planAfterRun: true,
  summarise: (params) => {
    switch (params.task) {
      case "classify":
        return `Ask AI: sort into ${list(params.categories ?? [])}`;
      case "extract":
        return `Ask AI: pull out ${list(Object.keys(params.fields ?? {}))}`;
      case "write":
        return `Ask AI: write up to ${params.maxWords ?? DEFAULT_MAX_WORDS} words`;
    }
  },
  summariseDraft: (params) =>
    params.task === "extract"
      ? "Ask AI (name the fields to pull out)"
      : params.task === "write"
        ? "Ask AI (write the prompt)"
        : "Ask AI (set the prompt and categories)",
  outputs: aiOutputs,
  paramLabels: { fields: "Fields to pull out", maxWords: "At most (words)" },
  paramHelp: {
    prompt:
      "What the model reads and is asked. Insert token adds a value of the record; filled in, the prompt can be at most 8 KB.",
    categories:
      "Sort into: separate categories with commas (2 to 50). The model answers exactly one, which the steps after read.",
    fields:
      'Extract: each field\'s name and kind, as {"amount": "number", "urgent": "boolean", "product": "string"}.',
    maxWords: "Write: a longer text is cut at this many words. Default 150.",
  },
  review: (_step, { facts }) => (facts.aiConfigured === false ? [AI_NOT_SET_UP] : []),
  // A dry run shows the prompt it would send and asks the model nothing, set up or not.
  dryRunDescribesOnly: { notSetUp: AI_NOT_SET_UP },
  // Asks nothing: the prompt as it would be sent, tokens filled in from the record.
  describeDryRun: (request) => [
    `Would ask the model: ${cut(shown(request.prompt), 1000)}`,
    request.task === "classify" && Array.isArray(request.categories)
      ? `The answer must be one of: ${request.categories.map(String).join(", ")}.`
      : request.task === "extract" && request.fields && typeof request.fields === "object"
        ? `The answer would give: ${Object.keys(request.fields).join(", ")}.`
        : `The answer would be a text of at most ${shown(request.maxWords)} words.`,
    "The dry run asks nothing, so the steps after it see no answer.",
  ],
} satisfies NodeDefinition<typeof aiParams>;
