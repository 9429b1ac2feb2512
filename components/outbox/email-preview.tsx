/**
 * An outbox email rendered as the recipient would see it, inside a sandboxed frame: no scripts, no
 * forms, no access to the app, so a flow's HTML can never act inside the admin. A link that opens
 * a new tab (the unsubscribe link does) opens it as a mail client would: outside the sandbox, as a
 * page of its own, never inside the admin.
 */
export function EmailPreview({ subject, html }: { subject: string; html: string }) {
  return (
    <iframe
      title={`Preview of the email “${subject}”`}
      sandbox="allow-popups allow-popups-to-escape-sandbox"
      srcDoc={html}
      loading="lazy"
      className="mt-2 h-64 w-full rounded-lg border border-zinc-200 bg-white"
    />
  );
}
