import { outboxEmails } from "@/lib/db/schema";
import { enqueueJobs } from "@/lib/jobs";
import type { DbOrTx } from "@/lib/db/client";
import { ActionDeferred, ActionSkipped, type DatabaseExecutor } from "../executor";
import { gateMessage, passGate } from "../message-gate";
import { config } from "@/lib/config/config";
import type { Purpose } from "@/lib/consent/purpose";
import { marketingRefusal } from "@/lib/consent/decide";
import { consentOfEmails } from "@/lib/consent/store";
import { unsubscribeHeaders, unsubscribeFooter, unsubscribeUrl } from "@/lib/consent/links";

interface EmailParams {
  to: string;
  subject: string;
  body: string;
  purpose?: Purpose;
}

type EmailRequest = { to: string; subject: string; html: string; purpose?: Purpose };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Why a rendered recipient list cannot be sent to, or null when it can: one address or several
 * separated by commas, as the step's settings allow.
 */
export function recipientsProblem(to: string): string | null {
  const recipients = to.split(",").map((part) => part.trim());
  if (recipients.every((part) => part === ""))
    return "The recipient came out empty (does the record have an email?).";
  const bad = recipients.find((part) => !EMAIL.test(part));
  return bad === undefined ? null : `'${bad}' is not an email address.`;
}

/** Plain text with `{tokens}` → HTML: values are escaped, line breaks kept. */
function toHtml(body: string): string {
  return body.replace(/\r?\n/g, "<br>\n");
}

/**
 * A marketing email's recipients as the shop's customers, and whether one of them may not be
 * reached (lib/consent/decide.ts). A transactional email, or one saved before purposes, reads
 * nothing. An address that is no customer's is not asked about.
 */
async function consentCheck(db: DbOrTx, request: EmailRequest, tenantId: string) {
  if (request.purpose !== "marketing") return { skip: null, customers: [] };
  const customers = await consentOfEmails(db, tenantId, request.to.split(","));
  const refusal = marketingRefusal(customers);
  return {
    skip: refusal
      ? new ActionSkipped(refusal.sentence, { skippedFor: refusal.kind, customerId: refusal.customerId })
      : null,
    customers,
  };
}

/**
 * Writes the email to the outbox in the action's transaction (exactly once). With `SMTP_URL` set,
 * an `email_send` job keyed by the outbox id sends it; the job is idempotent on that id. A
 * marketing email is skipped for a customer who does not accept marketing or unsubscribed, and
 * otherwise carries the customer's unsubscribe link in its footer and `List-Unsubscribe` headers.
 */
export const sendEmailExecutor: DatabaseExecutor<EmailParams, EmailRequest> = {
  effect: "database",
  prepare: (params, ctx) => ({
    to: ctx.render(params.to).trim(),
    subject: ctx.render(params.subject, { escape: "header" }),
    html: toHtml(ctx.render(params.body, { escape: "html" })),
    ...(params.purpose ? { purpose: params.purpose } : {}),
  }),
  check: (request) => recipientsProblem(request.to),
  skipWhy: async (db, request, ctx) => (await consentCheck(db, request, ctx.tenantId)).skip,
  async deferWhy(db, request, ctx) {
    const { skip, customers } = await consentCheck(db, request, ctx.tenantId);
    if (skip || request.purpose !== "marketing") return null;
    const ids = customers.map((c) => c.id);
    const answer = await gateMessage(db, ids, { ...ctx, path: [], pathChanged: null, dryRun: true });
    return answer instanceof ActionDeferred ? answer : null;
  },
  async run(tx, request, ctx) {
    const { skip, customers } = await consentCheck(tx, request, ctx.tenantId);
    if (skip) throw skip;
    // Quiet hours and the shop's cap (lib/messaging): for each customer a marketing email reaches
    // (several: it goes when it may go to all of them; message-gate.ts).
    if (request.purpose === "marketing")
      await passGate(
        tx,
        customers.map((c) => c.id),
        ctx,
      );
    // One customer reached: their own link. Several (a comma list): no one's link can speak for
    // the others, so the email goes without (each is asked about above all the same).
    const link = customers.length === 1 ? unsubscribeUrl(ctx.tenantId, customers[0]!.id) : null;
    const smtp = Boolean(config().SMTP_URL);
    const [email] = await tx
      .insert(outboxEmails)
      .values({
        tenantId: ctx.tenantId,
        runId: ctx.runId,
        nodeId: ctx.nodeId,
        to: request.to,
        subject: request.subject,
        bodyHtml: link ? request.html + unsubscribeFooter(link) : request.html,
        headers: link ? unsubscribeHeaders(link) : {},
        status: smtp ? "queued" : "stored",
      })
      .returning({ id: outboxEmails.id });
    if (smtp)
      await enqueueJobs(tx, [
        { task: "email_send", payload: { outboxId: email!.id }, jobKey: `email:${email!.id}` },
      ]);
    return {
      outboxId: email!.id,
      to: request.to,
      sentVia: smtp ? "smtp" : "outbox only",
      ...(request.purpose ? { purpose: request.purpose } : {}),
      ...(link ? { unsubscribeLink: true } : {}),
    };
  },
};
