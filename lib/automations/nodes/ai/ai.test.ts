import { describe, expect, it } from "vitest";
import { validate } from "@/lib/automations/review/validate";
import { summariseNode } from "../registry";
import { ActionError } from "../executor";
import { aiAction, AI_NOT_SET_UP } from "./ai";
import { aiCallsPerHour, aiRequestOf, answerSchema, checkAiRequest, checkAnswer } from "./ai.execute";

/*
 *   order_created ──▶ ai(classify | extract | write)
 */

function issuesOf(params: Record<string, unknown>) {
  const result = aiAction.params.safeParse(params);
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join(".")} ${i.message}`.trim());
}

const classify = {
  task: "classify",
  prompt: "Why? {entity.email}",
  categories: ["refund", "damaged", "other"],
};

describe("AI step params", () => {
  it("accepts each task with what it needs", () => {
    expect(issuesOf(classify)).toEqual([]);
    expect(
      issuesOf({ task: "extract", prompt: "Read it", fields: { amount: "number", urgent: "boolean" } }),
    ).toEqual([]);
    expect(issuesOf({ task: "write", prompt: "Thank them", maxWords: 40 })).toEqual([]);
  });

  it("classify needs 2 to 50 distinct categories", () => {
    expect(issuesOf({ task: "classify", prompt: "x" })).toEqual(["categories are required to sort into"]);
    expect(issuesOf({ ...classify, categories: ["only"] })).toEqual([
      "categories needs at least 2 categories to choose from",
    ]);
    expect(issuesOf({ ...classify, categories: Array.from({ length: 51 }, (_, i) => `c${i}`) })).toEqual([
      "categories can have at most 50 categories",
    ]);
    expect(issuesOf({ ...classify, categories: ["Refund", "refund"] })).toEqual([
      "categories has the same category twice",
    ]);
  });

  it("extract needs 1 to 30 fields, each string, number or boolean", () => {
    const extract = { task: "extract", prompt: "Read it" };
    expect(issuesOf({ ...extract, fields: {} })).toEqual(["fields needs at least 1 field to extract"]);
    expect(issuesOf({ ...extract, fields: { amount: "date" } })).toEqual([
      "fields.amount must be 'string', 'number' or 'boolean'",
    ]);
    expect(
      issuesOf({
        ...extract,
        fields: Object.fromEntries(Array.from({ length: 31 }, (_, i) => [`f${i}`, "string"])),
      }),
    ).toEqual(["fields can have at most 30 fields"]);
    expect(issuesOf({ ...extract, fields: { "order id": "string" } })[0]).toMatch(
      /^fields.order id is not a field name/,
    );
  });

  it("write takes 1 to 1000 words, and the prompt cannot be blank", () => {
    expect(issuesOf({ task: "write", prompt: "x", maxWords: 0 })).toEqual(["maxWords must be at least 1"]);
    expect(issuesOf({ task: "write", prompt: "x", maxWords: 1001 })).toEqual([
      "maxWords must be at most 1000",
    ]);
    expect(issuesOf({ task: "write", prompt: "  " })).toEqual([
      "prompt cannot be empty; say what the model should look at",
    ]);
  });

  it("is summed up on the canvas and hands on its outputs", () => {
    expect(summariseNode({ type: "auto.action.ai", params: classify })).toBe(
      "Ask AI: sort into refund, damaged, other",
    );
    expect(
      summariseNode({
        type: "auto.action.ai",
        params: { task: "extract", prompt: "x", fields: { amount: "number" } },
      }),
    ).toBe("Ask AI: pull out amount");
    expect(summariseNode({ type: "auto.action.ai", params: { task: "write", prompt: "x" } })).toBe(
      "Ask AI: write up to 150 words",
    );
    expect(aiAction.outputs({ task: "classify" })).toEqual([
      { path: "category", label: "the category the model chose" },
    ]);
    expect(
      aiAction
        .outputs({ task: "extract", fields: { amount: "number", urgent: "boolean" } })
        .map((o) => o.path),
    ).toEqual(["amount", "urgent"]);
    expect(aiAction.outputs({ task: "write" }).map((o) => o.path)).toEqual(["text"]);
  });
});

describe("AI step requests and answers", () => {
  const render = (template: string) => template.replace("{entity.email}", "it arrived broken");

  it("fills in the prompt's tokens and refuses one over 8 KB", () => {
    const request = aiRequestOf(aiAction.params.parse(classify), render);
    expect(request).toEqual({
      task: "classify",
      prompt: "Why? it arrived broken",
      categories: ["refund", "damaged", "other"],
      fields: null,
      maxWords: null,
    });
    expect(checkAiRequest(request)).toBeNull();
    expect(checkAiRequest({ ...request, prompt: "é".repeat(5000) })).toBe(
      "The prompt is 9.8 KB once its tokens are filled in; an AI step's prompt can be at most 8 KB. Use fewer or shorter values.",
    );
    expect(checkAiRequest({ ...request, prompt: "" })).toBe(
      "The prompt is empty once its tokens are filled in; there is nothing to ask.",
    );
  });

  it("a category must be one of the step's, in any case; anything else fails saying what came back", () => {
    const request = aiRequestOf(aiAction.params.parse(classify), render);
    expect(checkAnswer(request, { category: "DAMAGED " })).toEqual({ category: "damaged" });
    let failure: unknown;
    try {
      checkAnswer(request, { category: "lost in the post" });
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(ActionError);
    expect(failure).toMatchObject({
      message:
        "The AI model answered 'lost in the post', which is not one of this step's categories (refund, damaged, other).",
      transient: null,
    });
  });

  it("extracted fields keep their kinds, a missing one is null", () => {
    const request = aiRequestOf(
      aiAction.params.parse({
        task: "extract",
        prompt: "x",
        fields: { amount: "number", urgent: "boolean" },
      }),
      render,
    );
    const schema = answerSchema(request);
    expect(schema.safeParse({ amount: 12.5, urgent: true }).success).toBe(true);
    expect(schema.safeParse({ amount: "12.5", urgent: true }).success).toBe(false);
    expect(checkAnswer(request, { amount: 3 })).toEqual({ amount: 3, urgent: null });
  });

  it("a text longer than maxWords is cut at its last whole word, and says how long it was", () => {
    const request = aiRequestOf(aiAction.params.parse({ task: "write", prompt: "x", maxWords: 3 }), render);
    expect(checkAnswer(request, { text: " Thanks so much for waiting " })).toEqual({
      text: "Thanks so much",
      cutFromWords: 5,
    });
    expect(checkAnswer(request, { text: "Thank you. " })).toEqual({ text: "Thank you." });
  });

  it("reads the hourly allowance from AI_CALLS_PER_HOUR, 1,000 by default, and refuses a bad one", () => {
    const saved = process.env.AI_CALLS_PER_HOUR;
    try {
      delete process.env.AI_CALLS_PER_HOUR;
      expect(aiCallsPerHour()).toBe(1000);
      process.env.AI_CALLS_PER_HOUR = "25";
      expect(aiCallsPerHour()).toBe(25);
      process.env.AI_CALLS_PER_HOUR = "lots";
      expect(() => aiCallsPerHour()).toThrow(
        'AI_CALLS_PER_HOUR must be a whole number from 0 to 100,000,000 (got "lots").',
      );
    } finally {
      if (saved === undefined) delete process.env.AI_CALLS_PER_HOUR;
      else process.env.AI_CALLS_PER_HOUR = saved;
    }
  });
});

describe("AI step readiness", () => {
  const graph = {
    nodes: [
      { id: "t", type: "auto.trigger.order_created", params: {}, position: { x: 0, y: 0 } },
      { id: "ai", type: "auto.action.ai", params: classify, position: { x: 0, y: 100 } },
    ],
    edges: [{ id: "e", source: "t", sourceHandle: "out", target: "ai" }],
  };

  it("is a ready issue only where the server says no model is set up", () => {
    expect(validate(graph)).toEqual([]);
    expect(validate(graph, undefined, { aiConfigured: true })).toEqual([]);
    expect(validate(graph, undefined, { aiConfigured: false })).toEqual([
      { nodeId: "ai", message: AI_NOT_SET_UP },
    ]);
    expect(AI_NOT_SET_UP).toBe(
      "AI is not set up for this shop: ask your administrator to set AI_BASE_URL and AI_MODEL (and AI_API_KEY if the model needs one) on the server.",
    );
  });
});
