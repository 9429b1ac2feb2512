import { body, isEmail, line, paramsObject, startsWithToken, text } from "../params";
import type { NodeDefinition } from "../types";
import { PURPOSE_HINTS, purposeParam } from "@/lib/consent/purpose";
import { text as shown } from "../sentences";

/** Each comma-separated recipient is an address or a `{token}` that becomes one when the step runs. */
function isRecipientList(value: string): boolean {
  const parts = value.split(",").map((part) => part.trim());
  return parts.length > 0 && parts.every((part) => isEmail(part) || startsWithToken(part));
}

const sendEmailParams = paramsObject({
  to: text()
    .trim()
    .min(1, "cannot be empty")
    .max(500, "is longer than 500 characters")
    .refine(isRecipientList, "must be an email address or a token such as {entity.email}")
    .default("{entity.email}"),
  subject: line(200),
  body: body(20_000),
  /**
   * `marketing` (new steps) skips customers who do not accept marketing or unsubscribed, and adds
   * an unsubscribe link and the List-Unsubscribe headers; `transactional` always goes. Unset (a
   * step saved before purposes): sends as before, and the next publish asks (lib/consent).
   */
  purpose: purposeParam,
});

export const sendEmail = {
  type: "auto.action.send_email" as const,
  category: "action",
  // A dry run shows the email rendered, from the request the executor prepared.
  dryRunEmail: ({ to, subject, html }) =>
    typeof to === "string" && typeof subject === "string" && typeof html === "string"
      ? { to, subject, html }
      : null,
  label: "Send email",
  description:
    "Sends an email through the outbox (and SMTP when one is set up). Values put into the body are HTML-escaped (| raw inside a token's braces puts one in as it is).",
  params: sendEmailParams,
  defaultParams: () => ({ to: "{entity.email}", subject: "", body: "", purpose: "marketing" as const }),
  customerFacing: () => true,
  handles: { in: true, out: ["out"] },
  templated: ["to", "subject", "body"],
  // The body is HTML; a subject is one header line, so a value cannot break it.
  tokenEscapes: () => ({ subject: "header", body: "html" }),
  summarise: ({ to, subject }) => (subject ? `Email ${to}: '${subject}'` : `Email ${to}`),
  paramHelp: {
    purpose: `${PURPOSE_HINTS.transactional} ${PURPOSE_HINTS.marketing} Marketing emails get an unsubscribe link.`,
    body: "Insert token adds a value of the record, such as its name; values are HTML-escaped (| raw inside the braces puts one in as it is).",
  },
  // The body is shown rendered (the step's `email`), not as HTML source.
  describeDryRun: (request) => [`Would email ${shown(request.to)}: subject '${shown(request.subject)}'`],
} satisfies NodeDefinition<typeof sendEmailParams>;
