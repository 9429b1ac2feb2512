/**
 * An outbox email rendered as the recipient would see it, inside a sandboxed frame: no scripts, no
 * forms, no access to the app, so a flow's HTML can never act inside the admin.
 */
export function EmailPreview({ subject, html }: { subject: string; html: string }) {
  return (
    <iframe
      title={`Preview of the email “${subject}”`}
      sandbox=""
      srcDoc={html}
      loading="lazy"
      className="mt-2 h-64 w-full rounded-lg border border-zinc-200 bg-white"
    />
  );
}
