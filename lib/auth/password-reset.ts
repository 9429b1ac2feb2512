import "server-only";
import { and, count, eq, gt } from "drizzle-orm";
import { escapeHtml } from "@/lib/automations/tokens/escape";
import { getDb } from "@/lib/db/client";
import { outboxEmails } from "@/lib/db/schema";
import { log } from "@/lib/log/logger";
import { writeAuthEmail } from "./auth-emails";

/**
 * Password reset by email, on better-auth's flow (`emailAndPassword.sendResetPassword` in
 * lib/auth/auth.ts): it makes the token (24 characters of [A-Za-z0-9], about 143 bits), stores it
 * hashed (`verification.storeIdentifier`), consumes it on use and ends every session of the person
 * when the password changes. This file writes the email.
 */

/** How long a reset link works: an hour, better-auth's default, said here so the email can tell. */
export const RESET_TOKEN_SECONDS = 60 * 60;

/** At most this many reset emails to one address per hour: anyone can ask, so nobody is flooded. */
export const RESETS_PER_HOUR = 3;

/** The page a reset token opens. */
export function resetPath(token: string): string {
  return `/reset-password/${encodeURIComponent(token)}`;
}

/** Writes the reset email to the outbox (sealed, with no shop), unless this address had enough. */
export async function sendPasswordResetEmail(email: string, link: string): Promise<void> {
  const [recent] = await getDb()
    .select({ n: count() })
    .from(outboxEmails)
    .where(
      and(
        eq(outboxEmails.to, email),
        eq(outboxEmails.nodeId, "password_reset"),
        gt(outboxEmails.createdAt, new Date(Date.now() - 60 * 60 * 1000)),
      ),
    );
  if ((recent?.n ?? 0) >= RESETS_PER_HOUR) {
    // Said to nobody but the log: the page answers the same for every address, known or not.
    log().warn({ resetsThisHour: recent?.n }, "A password reset email was not sent: too many this hour");
    return;
  }
  await writeAuthEmail(getDb(), {
    kind: "password_reset",
    to: email,
    subject: "Set a new Tillflow password",
    html: [
      `<p>Someone (we hope you) asked to set a new password for ${escapeHtml(email)} on Tillflow.</p>`,
      `<p><a href="${escapeHtml(link)}">Set a new password</a></p>`,
      `<p>The link works once and for an hour. If you did not ask, ignore this email: your password stays as it is.</p>`,
    ].join("\n"),
  });
}
