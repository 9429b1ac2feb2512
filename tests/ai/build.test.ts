import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { POST as buildRoute } from "@/app/api/v1/ai/build/route";
import { POST as createRoute } from "@/app/api/v1/automations/route";
import { POST as publishRoute } from "@/app/api/v1/automations/[id]/publish/route";
import type { Graph } from "@/lib/automations/graph/schema";
import type { ReadyIssue } from "@/lib/automations/review/validate";
import { validate } from "@/lib/automations/review/validate";
import { registry } from "@/lib/automations/nodes/registry";
import {
  startStubModel,
  textOf,
  type ChatRequest,
  type StubModel,
  type StubReply,
} from "@/tests/helpers/ai-stub";
import { call, type ErrorReply } from "@/tests/helpers/fixtures";
import { createShop, type TestShop } from "@/tests/helpers/shop";

/*
 * POST /api/v1/ai/build against a stub OpenAI-compatible server on 127.0.0.1 (tests/helpers/ai-stub.ts),
 * through the real AI SDK provider: the stub answers each request with what the test queues.
 */

interface Built {
  name: string;
  graph: Graph;
  readyIssues: ReadyIssue[];
  notes: string[];
}

//  order_paid ──▶ Wait 2 days ──▶ send_email(review)
const VALID = {
  name: "Ask for a review",
  trigger: { type: "auto.trigger.order_paid" },
  steps: [
    { kind: "wait", type: "auto.control.wait", params: { duration: 2, unit: "days" } },
    {
      kind: "action",
      type: "auto.action.send_email",
      params: { to: "{entity.email}", subject: "How was {entity.number}?", body: "Tell us." },
    },
  ],
};

//  order_paid ──▶ Wait 40 days ──▶ send_email(review)     (over the 30-day limit)
const TOO_LONG = {
  ...VALID,
  steps: [{ ...VALID.steps[0], params: { duration: 40, unit: "days" } }, VALID.steps[1]],
};

let shop: TestShop;
let model: StubModel;
/** What the stub answers next; the last one repeats. */
let replies: StubReply[] = [];

beforeAll(async () => {
  shop = await createShop();
  model = await startStubModel((_request, index) => replies[Math.min(index, replies.length - 1)]!);
  process.env.AI_BASE_URL = model.baseURL;
  process.env.AI_MODEL = "stub";
  process.env.AI_API_KEY = "test-key";
});

afterEach(() => {
  model.requests.length = 0;
  delete process.env.AI_TIMEOUT_MS;
});

afterAll(async () => {
  delete process.env.AI_BASE_URL;
  delete process.env.AI_MODEL;
  delete process.env.AI_API_KEY;
  await model.close();
});

function build<B = Built>(prompt = "When an order is paid, wait 2 days, then ask for a review.") {
  return call<B>(buildRoute, {
    method: "POST",
    path: "/api/v1/ai/build",
    key: shop.keys.editor,
    body: { prompt },
  });
}

const systemOf = (request: ChatRequest) => textOf(request.messages.find((m) => m.role === "system")!);

describe("POST /api/v1/ai/build", () => {
  test("a valid spec → a laid-out draft that validates, created and published as any other", async () => {
    replies = [JSON.stringify(VALID)];
    const reply = await build();
    expect(reply.status).toBe(200);
    expect(model.requests).toHaveLength(1);
    const { graph, readyIssues, notes, name } = reply.body;
    expect(name).toBe("Ask for a review");
    expect(readyIssues).toEqual([]);
    expect(notes.length).toBeGreaterThan(0);
    expect(graph.nodes.map((n) => n.type)).toEqual([
      "auto.trigger.order_paid",
      "auto.control.wait",
      "auto.action.send_email",
    ]);
    expect(graph.nodes.every((n) => n.position)).toBe(true);
    expect(validate(graph)).toEqual([]);

    // The request: the model named by AI_MODEL, the key, the FlowSpec as the response format.
    const request = model.requests[0]!;
    expect(request.model).toBe("stub");
    expect(JSON.stringify(request.response_format)).toContain("auto.control.wait_until");

    const created = await call<{ id: string; status: string; readyIssues: ReadyIssue[] }>(createRoute, {
      method: "POST",
      path: "/api/v1/automations",
      key: shop.keys.editor,
      body: { name, graph },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: "draft", readyIssues: [] });
    const published = await call(publishRoute, {
      method: "POST",
      path: `/api/v1/automations/${created.body.id}/publish`,
      key: shop.keys.editor,
      params: { id: created.body.id },
    });
    expect(published.status).toBe(200);
  });

  test("the system prompt the model got names every node type a merchant may use", async () => {
    replies = [JSON.stringify(VALID)];
    expect((await build()).status).toBe(200);
    const system = systemOf(model.requests[0]!);
    // A split's exits are its branches, which a FlowSpec's then/else cannot say (lib/automations/ai/spec.ts).
    for (const definition of registry.all().filter((d) => !d.platform && d.handles.outFrom === undefined))
      expect(system).toContain(definition.type);
    expect(system).toContain("The shop's time zone is");
  });

  test("an invalid spec, then a valid one: two requests, the second carrying the ready issues", async () => {
    replies = [JSON.stringify(TOO_LONG), JSON.stringify(VALID)];
    const reply = await build();
    expect(reply.status).toBe(200);
    expect(model.requests).toHaveLength(2);
    expect(reply.body.readyIssues).toEqual([]);
    expect(reply.body.notes[0]).toBe("The first answer had 1 problem; the model was asked once more.");
    const second = model.requests[1]!.messages;
    expect(second.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(textOf(second[3]!)).toContain("A wait can be at most 30 days.");
    expect(JSON.parse(textOf(second[2]!))).toEqual(TOO_LONG);
  });

  test("invalid twice: the second answer comes back with its ready issues, never published", async () => {
    replies = [
      JSON.stringify(TOO_LONG),
      JSON.stringify({
        ...TOO_LONG,
        steps: [...TOO_LONG.steps, { kind: "action", type: "auto.action.teleport" }],
      }),
    ];
    const reply = await build();
    expect(reply.status).toBe(200);
    expect(model.requests).toHaveLength(2);
    expect(reply.body.graph.nodes.map((n) => n.type)).not.toContain("auto.action.teleport");
    expect(reply.body.readyIssues.map((i) => i.message)).toEqual([
      expect.stringMatching(
        /^The action 'auto\.action\.teleport' is not one Tillflow knows, so it was left out/,
      ),
      "A wait can be at most 30 days.",
    ]);
  });

  test("an answer in a code fence is read too (a local model without JSON mode)", async () => {
    replies = [`Here it is:\n\`\`\`json\n${JSON.stringify(VALID)}\n\`\`\``];
    const reply = await build();
    expect(reply.status).toBe(200);
    expect(reply.body.readyIssues).toEqual([]);
  });

  test("AI_STRUCTURED_OUTPUTS=false asks for a plain JSON object, and the answer is still checked", async () => {
    process.env.AI_STRUCTURED_OUTPUTS = "false";
    try {
      replies = [JSON.stringify(VALID)];
      const reply = await build();
      expect(reply.status).toBe(200);
      expect(model.requests[0]!.response_format).toEqual({ type: "json_object" });
      // The FlowSpec schema is then only in the prompt.
      expect(systemOf(model.requests[0]!)).toContain("JSON Schema of the answer");
    } finally {
      delete process.env.AI_STRUCTURED_OUTPUTS;
    }
  });

  test("provider 500 → a clear 502", async () => {
    replies = [{ status: 500, body: JSON.stringify({ error: { message: "boom" } }) }];
    const reply = await build<ErrorReply>();
    expect(reply.status).toBe(502);
    expect(reply.body.error).toEqual({
      code: "provider_error",
      message: "The AI model provider answered with an error (HTTP 500); try again.",
    });
    expect(model.requests).toHaveLength(1);
  });

  test("provider rate limit → 503", async () => {
    replies = [{ status: 429, body: JSON.stringify({ error: { message: "slow down" } }) }];
    const reply = await build<ErrorReply>();
    expect(reply.status).toBe(503);
    expect(reply.body.error.message).toBe(
      "The AI model provider is rate limiting us; try again in a minute.",
    );
  });

  test("no answer within AI_TIMEOUT_MS → 504", async () => {
    process.env.AI_TIMEOUT_MS = "300";
    replies = [{ delayMs: 5_000, then: JSON.stringify(VALID) }];
    const started = Date.now();
    const reply = await build<ErrorReply>();
    expect(reply.status).toBe(504);
    expect(reply.body.error.message).toBe(
      "The AI model did not answer within 0.3 seconds; try again, or ask your administrator to allow it longer.",
    );
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  test("an answer that is not JSON → 502", async () => {
    replies = ["Sure! I would tag the order and then wait."];
    const reply = await build<ErrorReply>();
    expect(reply.status).toBe(502);
    expect(reply.body.error.message).toMatch(/^The AI model answered with something that is not a JSON flow/);
  });

  test("a provider that cannot be reached → 502, none set up → 503: both tell the merchant to ask their administrator, naming no URL or setting", async () => {
    const saved = process.env.AI_BASE_URL;
    try {
      process.env.AI_BASE_URL = "http://127.0.0.1:9/v1";
      const unreachable = await build<ErrorReply>();
      expect(unreachable.status).toBe(502);
      expect(unreachable.body.error.message).toBe(
        "The AI model provider could not be reached; try again, or ask your administrator to check the AI builder's settings.",
      );
      delete process.env.AI_BASE_URL;
      const off = await build<ErrorReply>();
      expect(off.status).toBe(503);
      expect(off.body.error.message).toBe(
        "The AI builder is not set up for this shop yet; ask your administrator to connect an AI model.",
      );
    } finally {
      process.env.AI_BASE_URL = saved;
    }
  });

  test("viewers may not build; an empty prompt is a 422", async () => {
    const viewer = await call(buildRoute, {
      method: "POST",
      path: "/api/v1/ai/build",
      key: shop.keys.viewer,
      body: { prompt: "x" },
    });
    expect(viewer.status).toBe(403);
    const empty = await build<ErrorReply>("   ");
    expect(empty.status).toBe(422);
    expect(model.requests).toHaveLength(0);
  });
});
