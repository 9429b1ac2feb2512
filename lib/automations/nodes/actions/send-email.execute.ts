import { outboxEmails } from "@/lib/db/schema";
import { enqueueJobs } from "@/lib/jobs";
import { type DatabaseExecutor } from "../executor";
import { config } from "@/lib/config/config";

interface EmailParams {
  to: string;
  subject: string;
  body: string;
}

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
 * Writes the email to the outbox in the action's transaction (exactly once). With `SMTP_URL` set,
 * an `email_send` job keyed by the outbox id sends it; the job is idempotent on that id.
 */
export const sendEmailExecutor: DatabaseExecutor<EmailParams, { to: string; subject: string; html: string }> =
  {
    effect: "database",
    prepare: (params, ctx) => ({
      to: ctx.render(params.to).trim(),
      subject: ctx.render(params.subject, { escape: "header" }),
      html: toHtml(ctx.render(params.body, { escape: "html" })),
    }),
    check: (request) => recipientsProblem(request.to),
    async run(tx, request, ctx) {
      const smtp = Boolean(config().SMTP_URL);
      const [email] = await tx
        .insert(outboxEmails)
        .values({
          tenantId: ctx.tenantId,
          runId: ctx.runId,
          nodeId: ctx.nodeId,
          to: request.to,
          subject: request.subject,
          bodyHtml: request.html,
          status: smtp ? "queued" : "stored",
        })
        .returning({ id: outboxEmails.id });
      if (smtp)
        await enqueueJobs(tx, [
          { task: "email_send", payload: { outboxId: email!.id }, jobKey: `email:${email!.id}` },
        ]);
      return { outboxId: email!.id, to: request.to, sentVia: smtp ? "smtp" : "outbox only" };
    },
  };
