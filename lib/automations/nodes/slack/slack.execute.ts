import { z } from "zod";
import { appUrl } from "@/lib/auth/auth";
import { UnreadableSecretError } from "@/lib/credentials/secret-box";
import { credentialSecret } from "@/lib/credentials/store";
import { RefusedUrlError, parseHttpUrl } from "@/lib/net/guard";
import {
  guardedRequest,
  RedirectError,
  RequestTimeoutError,
  type GuardedResponse,
} from "@/lib/net/guarded-request";
import { ActionError, type OutsideExecutor } from "../executor";
import { runLink, type SlackParams } from "./slack";

/**
 * What a Slack step records as its request (the delivery's, and the step's input): the
 * credential's id and the message as it is posted. Never the webhook URL: that is the secret,
 * read from the credential at the moment of sending and forgotten after.
 */
const slackRequest = z.object({
  credentialId: z.string(),
  text: z.string(),
});
export type SlackRequest = z.infer<typeof slackRequest>;

const TIMEOUT_MS = 10_000;

/** Slack's answer to a refused message is a short code (`no_service`, `invalid_payload`): worth quoting. */
const CODE = /^[a-z][a-z0-9_]{1,60}$/;

/** Answers that say "try again later" (and every 5xx). */
const TRANSIENT = new Set([408, 429]);

/** What Slack's refusals mean, and what the merchant can do about them. */
const REFUSALS: Record<number, string> = {
  400: "it could not read the message — check the step's message",
  403: "the webhook may no longer post (its Slack app was removed or its channel changed) — make a new incoming webhook and update the credential",
  404: "the webhook URL no longer exists — make a new incoming webhook and update the credential",
  410: "the channel was archived or deleted — make a new incoming webhook and update the credential",
};

/** A `Retry-After` header (seconds, or an HTTP date) in milliseconds from now. */
function retryAfterMs(header: string | string[] | undefined): number | undefined {
  if (Array.isArray(header)) header = header[0];
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/**
 * `message` with the webhook URL (and its path, where the secret is) taken out: no sentence a run
 * records can carry it, whatever an error underneath said.
 */
export function withoutUrl(message: string, url: string): string {
  let out = message;
  const secrets = [url.trim()];
  try {
    const parsed = new URL(url.trim());
    secrets.push(parsed.href, `${parsed.pathname}${parsed.search}`);
    if (parsed.pathname.length > 1) secrets.push(parsed.pathname);
  } catch {
    // Not a URL: the text itself is what must not show.
  }
  for (const secret of secrets.filter((s) => s.length > 1).sort((a, b) => b.length - a.length))
    out = out.split(secret).join("…");
  return out;
}

/** The sentence for an answer Slack refused the message with (not 2xx, not to be retried). */
export function refusalSentence(status: number, answer: string): string {
  const said = CODE.test(answer.trim()) ? ` (Slack said '${answer.trim()}')` : "";
  const meaning =
    REFUSALS[status] ?? "check the webhook in Slack, make a new one if need be, and update the credential";
  return `Slack refused the message (${status}): ${meaning}${said}.`;
}

/** The message with its tokens filled in (values escaped for Slack) and the link back to the run. */
export function slackText(rendered: string, origin: string, runId: string): string {
  return `${rendered.replace(/\s+$/, "")}\n${runLink(origin, runId)}`;
}

/**
 * Posts `message` (`{ text }`, and `channel` for the webhooks that honour it) as JSON to the Slack
 * incoming webhook a `slack_webhook` credential holds: the Slack step's send, and alerts' Slack
 * channel (lib/alerts/). Failures are ActionErrors saying what to do; `transient` when a later try
 * may succeed.
 */
export async function postToSlack(
  tenantId: string,
  credentialId: string,
  message: { text: string; channel?: string },
  idempotencyKey: string,
): Promise<{ status: number; durationMs: number }> {
  let credential: Awaited<ReturnType<typeof credentialSecret>>;
  try {
    credential = await credentialSecret(tenantId, credentialId);
  } catch (error) {
    // A secret this key cannot open fails the same way every time; a database error may pass.
    const unreadable = error instanceof UnreadableSecretError;
    throw new ActionError(
      `The message was not posted: ${unreadable ? error.message : "the shop's secrets could not be read just now."}`,
      {},
      unreadable ? null : {},
    );
  }
  if (!credential)
    throw new ActionError(
      "The Slack webhook this step posts to was deleted. Choose another in the step's settings and publish again.",
      {},
      null,
    );
  if (credential.kind !== "slack_webhook")
    throw new ActionError(
      `'${credential.name}' is not a Slack incoming webhook. Choose a Slack webhook in the step's settings and publish again.`,
      {},
      null,
    );
  const url = credential.value.trim();
  const scrub = (message: string) => withoutUrl(message, url);
  try {
    parseHttpUrl(url);
  } catch {
    throw new ActionError(
      `The Slack webhook '${credential.name}' does not hold a web address. Paste the URL Slack gave you into it in Settings → Credentials.`,
      {},
      null,
    );
  }
  const body = JSON.stringify(message);
  const started = Date.now();
  let response: GuardedResponse;
  try {
    response = await guardedRequest({
      url,
      method: "POST",
      headers: {
        "user-agent": "Tillflow-Automations/1",
        "content-type": "application/json",
        "idempotency-key": idempotencyKey,
      },
      body,
      timeoutMs: TIMEOUT_MS,
      // Slack answers "ok" or a short code; nothing longer is worth reading.
      maxBytes: 4_096,
    });
  } catch (error) {
    const durationMs = Date.now() - started;
    // A refused address or an unfollowable redirect would fail the same way again: not retried.
    if (error instanceof RefusedUrlError || error instanceof RedirectError)
      throw new ActionError(scrub(error.message), { durationMs }, null);
    const cause =
      error instanceof RequestTimeoutError
        ? `no answer within ${TIMEOUT_MS / 1000} s`
        : error instanceof Error
          ? (error.cause instanceof Error ? error.cause.message : error.message).replace(/\.$/, "")
          : String(error);
    throw new ActionError(scrub(`Could not reach Slack: ${cause}.`), { durationMs }, {});
  }
  const output = { status: response.status, durationMs: Date.now() - started };
  if (response.status >= 200 && response.status < 300) return output;
  if (TRANSIENT.has(response.status) || response.status >= 500)
    throw new ActionError(
      `Slack could not take the message just now (${response.status}${response.statusText ? ` ${response.statusText}` : ""}).`,
      output,
      { retryAfterMs: retryAfterMs(response.headers["retry-after"]) },
    );
  throw new ActionError(scrub(refusalSentence(response.status, response.body)), output, null);
}

/**
 * Posts `{ "text": … }` as JSON to the Slack incoming webhook a `slack_webhook` credential holds
 * (SPEC §3 `auto.action.slack`), through the outbound guard (lib/net: only public addresses unless
 * HTTP_ACTION_ALLOW lists the host, redirects checked hop by hop). The URL is read at send time,
 * like the HTTP action's credential, and appears in no output, error or record: sentences name
 * "Slack", not the address. 408, 429, 5xx and no answer may pass (retried, with Slack's
 * Retry-After); any other refusal fails the step with what it means. The delivery's dedupe key
 * goes as `Idempotency-Key`, as on every outside effect.
 */
export const slackExecutor: OutsideExecutor<SlackParams, SlackRequest> = {
  effect: "outside",
  request: slackRequest,
  prepare: (params, ctx) => ({
    credentialId: params.credentialId,
    // Values escaped for Slack (`tokenEscapes`: mrkdwn); the merchant's own text stays as written.
    text: slackText(ctx.render(params.text, { escape: "mrkdwn" }), appUrl(), ctx.runId),
  }),
  check: (request) =>
    request.text.replace(/<[^>]*\|View the run in Tillflow>$/, "").trim() === ""
      ? "The message is empty once its tokens are filled in; there is nothing to post."
      : null,
  send: (request, ctx) =>
    postToSlack(ctx.tenantId, request.credentialId, { text: request.text }, ctx.dedupeKey),
  resendReason: "Posted again after an interruption; Slack may show the message twice.",
};
