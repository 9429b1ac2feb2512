import { escapeHtml } from "@/lib/automations/tokens/render";
import { handleLabel } from "@/lib/automations/nodes/catalog";
import { formatInZone } from "@/lib/time/cron";

/**
 * The two follow-ups of an approval nobody has decided (SPEC §2 "Alerts and caps"), as emails:
 * the **reminder** to the people who may decide it, and the **escalation** to the shop's admins.
 * Pure: the reminders task (`reminders.ts`) hands in what it claimed and writes what comes back.
 * Times are in the shop's time zone ("Fri, 4 Dec 2026, 10:00 CET"), never ISO.
 */

export type FollowUpKind = "remind" | "escalate";

/** What an email about one claimed approval says. */
export interface FollowUpFacts {
  kind: FollowUpKind;
  /** The automation's name as it is now. */
  automationName: string;
  /** What the step asks ("Review order #1001"). */
  title: string;
  /** The record it is about, labelled as merchants name it; null for none. */
  about: string | null;
  askedAt: Date;
  timesOutAt: Date;
  /** When the approvers were reminded, for the escalation (null when there was no reminder). */
  remindedAt: Date | null;
  timeZone: string;
  /** The approval's page (the inbox with it marked); deciding there takes a button press. */
  link: string;
}

export interface FollowUpEmail {
  subject: string;
  html: string;
}

/** The email for one follow-up. */
export function followUpEmail(facts: FollowUpFacts): FollowUpEmail {
  const at = (date: Date) => escapeHtml(formatInZone(date, facts.timeZone));
  const automation = escapeHtml(facts.automationName);
  const title = escapeHtml(facts.title);
  const about = facts.about ? `<p>About ${escapeHtml(facts.about)}.</p>` : "";
  const timeout = `<p>It times out on ${at(facts.timesOutAt)} and then follows '${handleLabel("timed_out")}'.</p>`;
  const link = `<p><a href="${escapeHtml(facts.link)}">Approve or reject it</a></p>`;
  if (facts.kind === "remind")
    return {
      subject: `Reminder: approval needed: ${facts.title}`,
      html: [
        `<p>'${automation}' is still waiting for your decision: <strong>${title}</strong>. It was asked on ${at(facts.askedAt)}.</p>`,
        about,
        timeout,
        link,
      ]
        .filter(Boolean)
        .join("\n"),
    };
  const reminded = facts.remindedAt ? ` The approvers were reminded on ${at(facts.remindedAt)}.` : "";
  return {
    subject: `Nobody has decided: ${facts.title}`,
    html: [
      `<p>Nobody has approved or rejected <strong>${title}</strong> in '${automation}' since it was asked on ${at(facts.askedAt)}.${reminded} As an admin you can decide it yourself, or ask someone who can.</p>`,
      about,
      timeout,
      link,
    ]
      .filter(Boolean)
      .join("\n"),
  };
}
