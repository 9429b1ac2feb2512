import { z } from "zod";
import { paramsObject, text } from "../params";
import { retryParams } from "../retry";
import type { NodeDefinition } from "../types";
import { excerpt as cut, text as shown } from "../sentences";

/** Slack shows at most 40,000 characters of a message; ours leaves room for the values and the run link. */
export const SLACK_TEXT_MAX = 3_000;

/** Where the words on the canvas stop: "Post to Slack: 'Order #1001 paid …'". */
const SUMMARY_CHARS = 60;

/** The link back to the run that every message ends with (Slack's `<url|label>`). */
export function runLink(origin: string, runId: string): string {
  return `<${origin.replace(/\/$/, "")}/runs/${runId}|View the run in Tillflow>`;
}

const slackParams = paramsObject({
  /** A `slack_webhook` credential (Settings → Credentials): the webhook URL is its secret, never in the graph. */
  credentialId: z.uuid({
    error: (issue) =>
      issue.input === undefined || issue.input === ""
        ? "is required: choose the channel's incoming webhook"
        : "must be the id of a Slack webhook from Settings → Credentials",
  }),
  text: text()
    .regex(/\S/, "cannot be empty; write the message to post")
    .max(SLACK_TEXT_MAX, `is longer than ${SLACK_TEXT_MAX.toLocaleString("en-US")} characters`),
  /** When Slack is busy (429), errs (5xx) or does not answer. Default: 3 attempts. */
  retry: retryParams.optional(),
});

export type SlackParams = z.infer<typeof slackParams>;

function firstLine(message: string): string {
  const flat = message.replace(/\s+/g, " ").trim();
  return flat.length > SUMMARY_CHARS ? `${flat.slice(0, SUMMARY_CHARS - 1)}…` : flat;
}

/**
 * SPEC §3 `auto.action.slack {credentialId, text}`: posts `{ text }` to a Slack incoming webhook,
 * the values put into the message escaped for Slack (the merchant's own `<url|link>` and `*bold*`
 * stay theirs), with a link back to the run. Sent like an HTTP action: through the outbound
 * guard, retried on 429, 5xx and no answer.
 */
export const slackAction = {
  type: "auto.action.slack",
  category: "action",
  label: "Post to Slack",
  description:
    "Posts a message to a Slack channel through an incoming webhook (Settings → Credentials), with a link back to the run. Values put into the message are escaped for Slack (| raw inside a token's braces puts one in as it is); your own *bold* and <https://example.com|links> work as Slack writes them.",
  params: slackParams,
  defaultParams: () => ({ credentialId: "", text: "" }),
  handles: { in: true, out: ["out"] },
  templated: ["text"],
  tokenEscapes: () => ({ text: "mrkdwn" }),
  summarise: ({ text: message }) => `Post to Slack: '${firstLine(message)}'`,
  summariseDraft: (params) =>
    typeof params.credentialId === "string" && params.credentialId !== ""
      ? "Post to Slack (write the message)"
      : "Post to Slack (choose a Slack webhook)",
  outputs: () => [
    { path: "status", label: "Slack's status code" },
    { path: "durationMs", label: "how long it took (ms)" },
  ],
  paramLabels: { text: "Message", credentialId: "Slack webhook" },
  paramHelp: {
    text: "Insert token adds a value of the record; values are escaped for Slack, so they show as written (| raw inside the braces puts one in as it is). Your own *bold*, _italics_ and <https://example.com|links> work. A link back to the run is added at the end.",
  },
  // Posts nothing: the message as Slack would get it, tokens filled in (the run link a run adds last).
  describeDryRun: (request) => [
    `Would post to Slack: “${cut(shown(request.text).replace(/\n<[^>\n]*\|View the run in Tillflow>$/, ""), 1000)}”`,
    "The message would end with a link back to the run.",
  ],
  // A Slack step not yet pointed at a webhook ("" in a new draft) names nothing; its ready issue says so.
  credentials: ({ credentialId }) =>
    typeof credentialId === "string" && credentialId !== ""
      ? [{ credentialId, kinds: ["slack_webhook"] }]
      : [],
} satisfies NodeDefinition<typeof slackParams>;
