import { eq } from "drizzle-orm";
import nodemailer, { type Transporter } from "nodemailer";
import { getDb } from "@/lib/db/client";
import { outboxEmails } from "@/lib/db/schema";
import { messageOf } from "@/lib/errors";
import { config } from "@/lib/config/config";
import { open } from "@/lib/credentials/secret-box";
import { SEALED_BODY, sealedBodyContext } from "@/lib/auth/auth-emails";

let transport: Transporter | null = null;

/**
 * Sends one outbox email through SMTP_URL. Idempotent on the outbox id: an email already sent is
 * not sent again, and the id is the Message-ID so a receiving server can spot a repeat caused by
 * a crash between sending and recording.
 */
export async function sendOutboxEmail(outboxId: string): Promise<void> {
  const [email] = await getDb().select().from(outboxEmails).where(eq(outboxEmails.id, outboxId));
  if (!email || email.status === "sent") return;
  const url = config().SMTP_URL;
  if (!url) return;
  transport ??= nodemailer.createTransport(url);
  try {
    await transport.sendMail({
      from: config().SMTP_FROM ?? "Tillflow <no-reply@tillflow.local>",
      to: email.to,
      subject: email.subject,
      // An invitation or a password reset is stored sealed (lib/auth/auth-emails.ts): opened only here.
      html: email.bodyHtml.startsWith(SEALED_BODY)
        ? open(email.bodyHtml.slice(SEALED_BODY.length), sealedBodyContext(email.id))
        : email.bodyHtml,
      messageId: `<${email.id}@tillflow>`,
      // A marketing email's List-Unsubscribe and List-Unsubscribe-Post (RFC 8058).
      headers: email.headers,
    });
  } catch (error) {
    await getDb()
      .update(outboxEmails)
      .set({ error: messageOf(error) })
      .where(eq(outboxEmails.id, outboxId));
    throw error; // graphile-worker retries with backoff
  }
  await getDb()
    .update(outboxEmails)
    .set({ status: "sent", sentAt: new Date(), error: null })
    .where(eq(outboxEmails.id, outboxId));
}
