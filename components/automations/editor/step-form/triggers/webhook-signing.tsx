"use client";

import { useSyncExternalStore, type JSX } from "react";
import { CopyButton } from "@/components/ui/copy-button";
import { webhookExamples } from "./webhook-examples";

const noSubscription = () => () => {};

function Example({ title, code }: { title: string; code: string }): JSX.Element {
  return (
    <div className="space-y-1">
      <div className="flex items-center justify-between gap-2">
        <h4 className="text-xs font-medium text-zinc-700">{title}</h4>
        <CopyButton value={code} label={`Copy ${title.toLowerCase()}`} />
      </div>
      <pre className="overflow-x-auto rounded-md bg-zinc-50 p-2 font-mono text-[11px] leading-relaxed text-zinc-800">
        {code}
      </pre>
    </div>
  );
}

/**
 * Under a webhook trigger's settings: its URL, and how to call it — signed with
 * `X-Tillflow-Signature` when the trigger has a secret (SPEC §2), as a curl and a Node example.
 */
export function WebhookSigning({ params }: { params: Record<string, unknown> }): JSX.Element | null {
  // The server does not know the address the browser reached it at; the page's origin is it.
  const origin = useSyncExternalStore(
    noSubscription,
    () => window.location.origin,
    () => "",
  );
  const token = typeof params.token === "string" ? params.token : "";
  // A viewer's graph has no token (lib/automations/nodes/editor-only.ts): the address is not theirs to see.
  if (!token)
    return (
      <p className="border-t border-zinc-200 pt-4 text-xs text-zinc-600">
        This webhook&apos;s address is shown to editors and admins only.
      </p>
    );
  // Signed with a chosen credential, or with a plain secret the save is about to turn into one.
  const signed =
    (typeof params.secretCredentialId === "string" && params.secretCredentialId.length > 0) ||
    (typeof params.secret === "string" && params.secret.length > 0);
  const { url, curl, node } = webhookExamples(origin, token, signed);
  return (
    <section aria-labelledby="webhook-signing" className="space-y-3 border-t border-zinc-200 pt-4">
      <h3 id="webhook-signing" className="text-sm font-semibold text-zinc-900">
        Calling this webhook
      </h3>
      <div className="flex items-center gap-2">
        <code className="min-w-0 flex-1 truncate rounded bg-zinc-50 px-2 py-1 text-xs" title={url}>
          {url}
        </code>
        <CopyButton value={url} label="Copy URL" />
      </div>
      <p className="text-xs text-zinc-600">
        {signed
          ? 'Sign each request: X-Tillflow-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>"> with this trigger\'s signing secret. Requests more than 5 minutes off, or with a signature used before, are refused. The examples read the secret from TILLFLOW_SECRET.'
          : params.signed === true
            ? "Choose a signing secret above: this webhook accepts only signed requests, and the flow cannot be published without one."
            : "Unsigned: anyone with this link can start runs of this flow. Turn on Only signed requests and choose a signing secret to accept only signed requests."}{" "}
        An Idempotency-Key makes a retried delivery start nothing new.
      </p>
      <Example title="curl" code={curl} />
      <Example title="Node" code={node} />
    </section>
  );
}
