import "server-only";
import { and, eq, ne, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { alertHistory } from "@/lib/db/schema";
import { open } from "@/lib/credentials/secret-box";
import { emailStaff } from "@/lib/automations/engine/notify-approvers";
import { ActionError } from "@/lib/automations/nodes/executor";
import { postToSlack } from "@/lib/automations/nodes/slack/slack.execute";
import { escapeHtml, escapeMrkdwn } from "@/lib/automations/tokens/escape";
import { messageOf } from "@/lib/errors";
import { metrics } from "@/lib/metrics/metrics";
import { ALERT_EMAIL_STEP } from "./kinds";
import { ruleForSending } from "./rules";
import { postWebhookAlert, WebhookAlertError } from "./webhook";

/**
 * Sends one kept alert through its rule's channel (the `alert_send` task; graphile-worker retries
 * a failure that may pass). Idempotent by the history row: a row already `sent` is not sent again,
 * and an email is written to the outbox in the same transaction that marks the row sent. A webhook
 * carries the alert's id as `webhook-id` and Slack gets it as `Idempotency-Key`, so a crash between
 * posting and recording lets the receiver spot the repeat.
 */

export type SendOutcome = "sent" | "failed" | "skipped";

type HistoryRow = typeof alertHistory.$inferSelect;

const STAFF_ROLES = ["admin", "editor", "viewer"];

async function markSent(id: string): Promise<void> {
  await getDb()
    .update(alertHistory)
    .set({ status: "sent", sentAt: new Date(), error: null, attempts: sql`${alertHistory.attempts} + 1` })
    .where(eq(alertHistory.id, id));
}

async function markFailed(id: string, error: string): Promise<void> {
  await getDb()
    .update(alertHistory)
    .set({ status: "failed", error, attempts: sql`${alertHistory.attempts} + 1` })
    .where(eq(alertHistory.id, id));
}

/** The email to the shop's staff, written to the outbox with the row marked sent, or nothing if already sent. */
async function sendEmail(alert: HistoryRow): Promise<void> {
  await getDb().transaction(async (tx) => {
    const [claimed] = await tx
      .update(alertHistory)
      .set({ status: "sent", sentAt: new Date(), error: null, attempts: sql`${alertHistory.attempts} + 1` })
      .where(and(eq(alertHistory.id, alert.id), ne(alertHistory.status, "sent")))
      .returning({ id: alertHistory.id });
    if (!claimed) return;
    await emailStaff(tx, [
      {
        t: alert.tenantId,
        r: null,
        n: ALERT_EMAIL_STEP,
        roles: STAFF_ROLES,
        subject: `Alert: ${alert.automationName}`,
        html: [
          `<p>${escapeHtml(alert.message)}</p>`,
          `<p><a href="${escapeHtml(alert.runsUrl)}">See the runs</a></p>`,
          `<p>You get this because of an alert in Settings → Alerts.</p>`,
        ].join("\n"),
      },
    ]);
  });
}

/** Sends the alert; returns what happened. Throws (for a retry) only when a later try may succeed. */
export async function sendAlert(alertId: string): Promise<SendOutcome> {
  const [alert] = await getDb().select().from(alertHistory).where(eq(alertHistory.id, alertId));
  if (!alert || alert.status === "sent") return "skipped";
  const count = (outcome: "sent" | "failed") =>
    metrics().alertSends.inc({ kind: alert.kind, channel: alert.channel, outcome });
  const rule = alert.ruleId ? await ruleForSending(alert.tenantId, alert.ruleId) : null;
  if (!rule) {
    await markFailed(alert.id, "Its alert was deleted before it could be sent.");
    count("failed");
    return "failed";
  }
  const channel = rule.channel;
  try {
    if (channel.type === "email") await sendEmail(alert);
    else if (channel.type === "slack") {
      const text = `${escapeMrkdwn(alert.message)}\n<${alert.runsUrl}|See the runs in Tillflow>`;
      await postToSlack(
        alert.tenantId,
        channel.credentialId,
        channel.channel ? { text, channel: channel.channel } : { text },
        `alert:${alert.id}`,
      );
      await markSent(alert.id);
    } else {
      const secret = open(channel.sealedSecret, alert.tenantId);
      await postWebhookAlert(channel.url, secret, {
        type: "tillflow.alert",
        alertId: alert.id,
        kind: alert.kind,
        automationId: alert.automationId,
        automationName: alert.automationName,
        message: alert.message,
        count: alert.count,
        runsUrl: alert.runsUrl,
        at: alert.createdAt.toISOString(),
      });
      await markSent(alert.id);
    }
  } catch (error) {
    await markFailed(alert.id, messageOf(error));
    count("failed");
    const retry =
      error instanceof ActionError
        ? error.transient !== null
        : error instanceof WebhookAlertError
          ? error.retry
          : true;
    if (retry) throw error;
    return "failed";
  }
  count("sent");
  return "sent";
}
