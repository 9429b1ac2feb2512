import { afterEach, describe, expect, it, vi } from "vitest";
import { renderTemplate, type TemplateContext } from "@/lib/automations/tokens/render";
import type { ActionContext } from "../executor";
import { summariseNode } from "../registry";
import { slackAction } from "./slack";
import { refusalSentence, slackExecutor, slackText, withoutUrl } from "./slack.execute";

const CREDENTIAL = "7f0c1f8e-2a4b-4c8e-9d1a-3b5e6f7a8b9c";

const templates: TemplateContext = {
  entity: { number: "#1001", name: "Tom & <Jerry>", note: "<!channel> <https://evil.test|click>" },
  event: { type: "order.paid", payload: {} },
  steps: {},
  variables: {},
  run: { id: "run-1" },
  now: new Date("2026-11-30T09:00:00Z"),
};

function context(): ActionContext {
  return {
    tenantId: "t",
    runId: "run-1",
    automationId: "a",
    automationName: "A",
    automationVersion: 1,
    nodeId: "s",
    leg: 1,
    dedupeKey: "run-1:s:1",
    entity: null,
    event: { type: "order.paid", payload: {} } as unknown as ActionContext["event"],
    steps: {},
    now: templates.now as Date,
    render: (template, options) => renderTemplate(template, templates, options),
  };
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("Post to Slack's settings", () => {
  it("wants a Slack webhook and a message, and takes a retry", () => {
    const parsed = slackAction.params.safeParse({ credentialId: CREDENTIAL, text: "Paid: {entity.number}" });
    expect(parsed.success).toBe(true);
    expect(
      slackAction.params.safeParse({ credentialId: CREDENTIAL, text: "x", retry: { attempts: 1 } }).success,
    ).toBe(true);
    const messages = (params: unknown) =>
      slackAction.params.safeParse(params).error?.issues.map((i) => `${i.path.join(".")} ${i.message}`);
    expect(messages({ credentialId: "", text: "hi" })).toEqual([
      "credentialId is required: choose the channel's incoming webhook",
    ]);
    expect(messages({ text: "hi" })).toEqual([
      "credentialId is required: choose the channel's incoming webhook",
    ]);
    expect(messages({ credentialId: "hooks.slack.com/x", text: "hi" })).toEqual([
      "credentialId must be the id of a Slack webhook from Settings → Credentials",
    ]);
    expect(messages({ credentialId: CREDENTIAL, text: "  \n" })).toEqual([
      "text cannot be empty; write the message to post",
    ]);
    expect(messages({ credentialId: CREDENTIAL, text: "x".repeat(3001) })).toEqual([
      "text is longer than 3,000 characters",
    ]);
    expect(messages({ credentialId: CREDENTIAL, text: "hi", url: "https://hooks.slack.com/x" })).toEqual([
      " 'url' is not a setting of this step",
    ]);
  });

  it("starts as a draft that says what is missing", () => {
    expect(slackAction.params.safeParse(slackAction.defaultParams()).success).toBe(false);
    expect(summariseNode({ type: "auto.action.slack", params: slackAction.defaultParams() })).toBe(
      "Post to Slack (choose a Slack webhook)",
    );
    expect(summariseNode({ type: "auto.action.slack", params: { credentialId: CREDENTIAL, text: "" } })).toBe(
      "Post to Slack (write the message)",
    );
  });

  it("summarises the message on the canvas, its tokens in words, a long one cut", () => {
    expect(
      summariseNode(
        {
          type: "auto.action.slack",
          params: { credentialId: CREDENTIAL, text: "Order {entity.number} paid" },
        },
        { domain: "order" },
      ),
    ).toBe("Post to Slack: 'Order [the order's number] paid'");
    expect(
      summariseNode({
        type: "auto.action.slack",
        params: { credentialId: CREDENTIAL, text: `Line one\n${"word ".repeat(30)}` },
      }),
    ).toMatch(/^Post to Slack: 'Line one word word .{30,}…'$/);
  });

  it("escapes the message's token values for Slack", () => {
    expect(slackAction.tokenEscapes()).toEqual({ text: "mrkdwn" });
  });
});

describe("slackExecutor.prepare", () => {
  it("escapes each token's value for Slack, keeps the merchant's own text, and links back to the run", () => {
    vi.stubEnv("BETTER_AUTH_URL", "https://admin.shop.test/");
    const request = slackExecutor.prepare(
      {
        credentialId: CREDENTIAL,
        text: "*Paid* {entity.number} by {entity.name}: {entity.note} <https://shop.test/o|open> {entity.name | raw}",
      },
      context(),
    );
    expect(request).toEqual({
      credentialId: CREDENTIAL,
      text:
        "*Paid* #1001 by Tom &amp; &lt;Jerry&gt;: &lt;!channel&gt; &lt;https://evil.test|click&gt; <https://shop.test/o|open> Tom & <Jerry>\n" +
        "<https://admin.shop.test/runs/run-1|View the run in Tillflow>",
    });
    expect(slackExecutor.check?.(request)).toBeNull();
  });

  it("links to this machine at PORT without BETTER_AUTH_URL", () => {
    vi.stubEnv("BETTER_AUTH_URL", "");
    vi.stubEnv("PORT", "4123");
    expect(slackExecutor.prepare({ credentialId: CREDENTIAL, text: "hi" }, context()).text).toBe(
      "hi\n<http://localhost:4123/runs/run-1|View the run in Tillflow>",
    );
  });

  it("refuses a message that is empty once its tokens are filled in", () => {
    const request = slackExecutor.prepare({ credentialId: CREDENTIAL, text: "{entity.nothing}" }, context());
    expect(slackExecutor.check?.(request)).toBe(
      "The message is empty once its tokens are filled in; there is nothing to post.",
    );
  });

  it("records no webhook URL: its request is the credential's id and the message", () => {
    const request = slackExecutor.prepare({ credentialId: CREDENTIAL, text: "hi" }, context());
    expect(Object.keys(request).sort()).toEqual(["credentialId", "text"]);
    expect(slackExecutor.request.parse(request)).toEqual(request);
  });
});

describe("Slack's answers, in words", () => {
  it("says what a refusal means and what to do", () => {
    expect(refusalSentence(404, "no_service")).toBe(
      "Slack refused the message (404): the webhook URL no longer exists — make a new incoming webhook and update the credential (Slack said 'no_service').",
    );
    expect(refusalSentence(404, "")).toBe(
      "Slack refused the message (404): the webhook URL no longer exists — make a new incoming webhook and update the credential.",
    );
    expect(refusalSentence(400, "invalid_payload")).toMatch(/^Slack refused the message \(400\): .*message/);
    expect(refusalSentence(410, "channel_is_archived")).toMatch(/archived/);
    // An answer that is not one of Slack's codes is not quoted (it could be anything).
    expect(refusalSentence(418, "<html>I'm a teapot</html>")).toBe(
      "Slack refused the message (418): check the webhook in Slack, make a new one if need be, and update the credential.",
    );
  });

  it("takes the webhook URL and its secret path out of any sentence", () => {
    const url = "https://hooks.slack.com/services/T000/B000/XXXXSECRET";
    expect(withoutUrl(`connect to ${url} failed`, url)).toBe("connect to … failed");
    expect(withoutUrl("GET /services/T000/B000/XXXXSECRET 404", url)).toBe("GET … 404");
    expect(withoutUrl("hooks.slack.com did not answer", url)).toBe("hooks.slack.com did not answer");
  });

  it("ends the message with the run's link, once", () => {
    expect(slackText("Hello  \n", "http://localhost:3000", "r1")).toBe(
      "Hello\n<http://localhost:3000/runs/r1|View the run in Tillflow>",
    );
  });
});
