import { signatureHeaders } from "@/lib/credentials/standard-webhooks";
import { RefusedUrlError } from "@/lib/net/guard";
import { guardedRequest, RedirectError, RequestTimeoutError } from "@/lib/net/guarded-request";

/** What a webhook alert posts (SPEC §2): the JSON a receiver reads. */
export interface WebhookAlertBody {
  type: "tillflow.alert";
  alertId: string;
  kind: string;
  automationId: string | null;
  automationName: string;
  message: string;
  count: number;
  runsUrl: string;
  at: string;
}

const TIMEOUT_MS = 10_000;

/** A webhook alert that could not be delivered; `retry` when a later try may succeed. */
export class WebhookAlertError extends Error {
  constructor(
    message: string,
    readonly retry: boolean,
  ) {
    super(message);
    this.name = "WebhookAlertError";
  }
}

/**
 * Posts one alert to a webhook, signed with Standard Webhooks headers under the rule's secret
 * (`webhook-id` is the alert's id, the same on every retry, so the receiver can drop a repeat),
 * through the outbound guard (only public addresses unless HTTP_ACTION_ALLOW lists the host).
 */
export async function postWebhookAlert(url: string, secret: string, body: WebhookAlertBody): Promise<void> {
  const text = JSON.stringify(body);
  let status: number;
  try {
    const response = await guardedRequest({
      url,
      method: "POST",
      headers: {
        "user-agent": "Tillflow-Alerts/1",
        "content-type": "application/json",
        ...signatureHeaders(secret, body.alertId, text, new Date()),
      },
      body: text,
      timeoutMs: TIMEOUT_MS,
      maxBytes: 4_096,
    });
    status = response.status;
  } catch (error) {
    if (error instanceof RefusedUrlError || error instanceof RedirectError)
      throw new WebhookAlertError(`The webhook was not called: ${error.message}`, false);
    const cause =
      error instanceof RequestTimeoutError
        ? `no answer within ${TIMEOUT_MS / 1000} s`
        : error instanceof Error
          ? (error.cause instanceof Error ? error.cause.message : error.message).replace(/\.$/, "")
          : String(error);
    throw new WebhookAlertError(`Could not reach the webhook: ${cause}.`, true);
  }
  if (status >= 200 && status < 300) return;
  const retry = status === 408 || status === 429 || status >= 500;
  throw new WebhookAlertError(
    `The webhook answered ${status}${retry ? "; it will be tried again" : ""}.`,
    retry,
  );
}
