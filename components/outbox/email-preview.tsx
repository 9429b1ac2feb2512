/**
 * An outbox email rendered as the recipient would see it, inside a sandboxed frame: no scripts, no
 * forms, no access to the app, so a flow's HTML can never act inside the admin. With
 * `openLinks` (the outbox), a link that opens a new tab — the unsubscribe link does — opens as a
 * mail client would: a page of its own outside the sandbox, never inside the admin.
 */
export function EmailPreview({
  subject,
  html,
  openLinks = false,
}: {
  subject: string;
  html: string;
  openLinks?: boolean;
}) {
  return (
    <iframe
      title={`Preview of the email “${subject}”`}
      sandbox={openLinks ? "allow-popups allow-popups-to-escape-sandbox" : ""}
      srcDoc={html}
      loading="lazy"
      className="mt-2 h-64 w-full rounded-lg border border-zinc-200 bg-white"
    />
  );
}
