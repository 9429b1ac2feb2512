import "server-only";
import crypto from "node:crypto";
import { seal } from "@/lib/credentials/secret-box";
import type { DbOrTx } from "@/lib/db/client";
import { outboxEmails } from "@/lib/db/schema";
import { enqueueJobs } from "@/lib/jobs";
import { config } from "@/lib/config/config";

/**
 * Emails that carry a sign-in secret (an invitation link, a password-reset link) go through the
 * same outbox and SMTP task as every other email, with two differences:
 *
 * - no shop: `tenant_id` is null, so no shop's outbox (which viewers can read) lists them — an
 *   invitation link read by a viewer would let them become the person invited;
 * - a sealed body (lib/credentials/secret-box, the row's id as context): the database never holds
 *   the token in clear, only its hash (invitations) and this ciphertext, which the `email_send`
 *   task opens just before sending.
 */

/** The prefix that marks a sealed body in `outbox_emails.body_html`. */
export const SEALED_BODY = "sealed:";

/** The context a body is sealed with: its row, so a body copied to another row does not open. */
export const sealedBodyContext = (outboxId: string) => `outbox-email:${outboxId}`;

/** Writes one email that carries a secret to the outbox (and queues it for SMTP when configured). */
export async function writeAuthEmail(
  tx: DbOrTx,
  email: { to: string; subject: string; html: string; kind: "invitation" | "password_reset" },
): Promise<string> {
  const id = crypto.randomUUID();
  const smtp = Boolean(config().SMTP_URL);
  await tx.insert(outboxEmails).values({
    id,
    tenantId: null,
    nodeId: email.kind,
    to: email.to,
    subject: email.subject,
    bodyHtml: SEALED_BODY + seal(email.html, sealedBodyContext(id)),
    status: smtp ? "queued" : "stored",
  });
  if (smtp) await enqueueJobs(tx, [{ task: "email_send", payload: { outboxId: id }, jobKey: `email:${id}` }]);
  return id;
}
