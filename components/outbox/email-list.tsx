import { Badge, type BadgeTone } from "@/components/ui/badge";
import { RelativeTime } from "@/components/ui/relative-time";
import { EmailPreview } from "./email-preview";
import Link from "next/link";
import { ALERT_EMAIL_STEP } from "@/lib/alerts/kinds";
import { RunLink } from "@/components/runs/run-link";

export interface OutboxEmail {
  id: string;
  runId: string | null;
  nodeId: string | null;
  to: string;
  subject: string;
  bodyHtml: string;
  /** A marketing email's List-Unsubscribe headers (absent in replies made before them). */
  headers?: Record<string, string>;
  status: string;
  error: string | null;
  sentAt: string | null;
  createdAt: string;
}

const STATUS: Record<string, { label: string; tone: BadgeTone }> = {
  stored: { label: "Stored", tone: "neutral" },
  queued: { label: "Queued", tone: "accent" },
  sent: { label: "Sent", tone: "success" },
  failed: { label: "Failed", tone: "danger" },
};

/** Emails written by flows, newest first; each opens on its rendered preview. */
export function EmailList({ items }: { items: OutboxEmail[] }) {
  return (
    <ul className="divide-y divide-zinc-100" aria-label="Emails">
      {items.map((email) => {
        const status = STATUS[email.status] ?? { label: email.status, tone: "neutral" as const };
        return (
          <li key={email.id} className="px-5 py-4" data-testid="outbox-email">
            <details>
              <summary className="flex cursor-pointer flex-wrap items-center gap-x-3 gap-y-1">
                <span className="font-medium text-zinc-900">{email.subject}</span>
                <Badge tone={status.tone} dot>
                  {status.label}
                </Badge>
                <span className="text-sm text-zinc-600">to {email.to}</span>
                <span className="ml-auto text-xs text-zinc-500">
                  <RelativeTime value={email.createdAt} />
                </span>
              </summary>
              <div className="mt-2 text-xs text-zinc-600">
                {email.runId ? (
                  <>
                    Written by step <span className="font-mono">{email.nodeId}</span> of run{" "}
                    <RunLink runId={email.runId} />
                  </>
                ) : email.nodeId === ALERT_EMAIL_STEP ? (
                  <>
                    Sent by an alert rule in{" "}
                    <Link href="/settings/alerts" className="underline underline-offset-2">
                      Settings → Alerts
                    </Link>
                  </>
                ) : (
                  "Its run has been purged."
                )}
                {email.sentAt && (
                  <>
                    {" · sent "}
                    <RelativeTime value={email.sentAt} />
                  </>
                )}
                {email.error && <p className="mt-1 text-red-700">{email.error}</p>}
                {email.headers && Object.keys(email.headers).length > 0 && (
                  <dl
                    className="mt-1 grid grid-cols-[max-content_1fr] gap-x-2 font-mono"
                    aria-label="Headers"
                  >
                    {Object.entries(email.headers).map(([name, value]) => (
                      <div key={name} className="contents">
                        <dt>{name}:</dt>
                        <dd className="break-all">{value}</dd>
                      </div>
                    ))}
                  </dl>
                )}
              </div>
              <EmailPreview subject={email.subject} html={email.bodyHtml} openLinks />
            </details>
          </li>
        );
      })}
    </ul>
  );
}
