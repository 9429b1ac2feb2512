"use client";

import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmButton } from "@/components/ui/confirm-dialog";
import { useServerAction } from "@/components/ui/hooks/use-server-action";
import { deleteConnectionAction } from "@/lib/actions/connections/delete-connection";
import { sendTestDeliveryAction } from "@/lib/actions/connections/send-test-delivery";
import { repairWebhooksAction } from "@/lib/actions/connections/repair-webhooks";

/** "Repair": creates the connection's missing webhook subscriptions in Shopify again. */
export function RepairWebhooksButton({ id, name, missing }: { id: string; name: string; missing: number }) {
  const [message, setMessage] = useState<{ tone: "ok" | "error"; text: string } | null>(null);
  const repairWebhooks = useServerAction(repairWebhooksAction);
  return (
    <span className="inline-flex flex-col items-end gap-1">
      <Button
        size="sm"
        pending={repairWebhooks.pending}
        aria-label={`Repair the webhooks of ${name}`}
        onClick={() => {
          setMessage(null);
          repairWebhooks.run({ id }, (result) => {
            setMessage(
              !result.ok
                ? { tone: "error", text: result.error }
                : result.data.error
                  ? { tone: "error", text: result.data.error }
                  : { tone: "ok", text: `Created ${result.data.created} of ${missing} missing.` },
            );
          });
        }}
      >
        Repair
      </Button>
      <span
        role="status"
        className={
          message?.tone === "error"
            ? "max-w-xs text-right text-xs text-red-700"
            : "max-w-xs text-right text-xs text-zinc-600"
        }
      >
        {message?.text}
      </span>
    </span>
  );
}

/**
 * Posts a signed sample order through the connection's URL, marked as a test: it runs no
 * automation unless "Also run my automations" is ticked. The list below shows what it did.
 */
export function SendTestDeliveryButton({ id, name }: { id: string; name: string }) {
  const [message, setMessage] = useState<{ tone: "ok" | "error"; text: string } | null>(null);
  const [runAutomations, setRunAutomations] = useState(false);
  const sendTestDelivery = useServerAction(sendTestDeliveryAction);
  const boxId = useId();
  return (
    <span className="inline-flex flex-col items-end gap-1">
      <Button
        size="sm"
        pending={sendTestDelivery.pending}
        aria-label={`Send a test delivery to ${name}`}
        onClick={() => {
          setMessage(null);
          sendTestDelivery.run({ id, runAutomations }, (result) => {
            setMessage(
              result.ok
                ? {
                    tone: "ok",
                    text: runAutomations
                      ? "Sent a test order; your automations run on it. It appears in the deliveries below."
                      : "Sent a test order; no automation runs on it. It appears in the deliveries below.",
                  }
                : { tone: "error", text: result.error },
            );
          });
        }}
      >
        Send a test delivery
      </Button>
      <label htmlFor={boxId} className="inline-flex items-center gap-1.5 text-xs text-zinc-700">
        <input
          id={boxId}
          type="checkbox"
          className="size-3.5 rounded border-zinc-400"
          checked={runAutomations}
          onChange={(event) => setRunAutomations(event.target.checked)}
        />
        Also run my automations
      </label>
      <span
        role="status"
        className={
          message?.tone === "error"
            ? "max-w-xs text-right text-xs text-red-700"
            : "max-w-xs text-right text-xs text-zinc-600"
        }
      >
        {message?.text}
      </span>
    </span>
  );
}

/** Disconnect, after a confirmation: the URL stops answering and the secret is deleted. */
export function DisconnectButton({
  id,
  name,
  platform,
  removesWebhooks = false,
}: {
  id: string;
  name: string;
  platform: string;
  /** Tillflow made the store's webhooks with its token, and deletes them. */
  removesWebhooks?: boolean;
}) {
  const [error, setError] = useState<string | null>(null);
  const deleteConnection = useServerAction(deleteConnectionAction);
  return (
    <span className="inline-flex flex-col items-end gap-1">
      <ConfirmButton
        label="Disconnect"
        ariaLabel={`Disconnect ${name}`}
        title={`Disconnect “${name}”?`}
        confirmLabel="Disconnect"
        pending={deleteConnection.pending}
        onConfirm={() => {
          setError(null);
          deleteConnection.run({ id }, (result) => {
            if (!result.ok) setError(result.error);
          });
        }}
      >
        {removesWebhooks
          ? `Tillflow deletes the webhooks it made in ${platform}; its secret, token and delivery list are deleted. Records it already sent stay.`
          : `${platform} deliveries to its URL will be refused, and its secret and delivery list deleted. Records it already sent stay. Delete the webhooks in ${platform} too.`}
      </ConfirmButton>
      {error && (
        <span role="alert" className="max-w-xs text-right text-xs text-red-700">
          {error}
        </span>
      )}
    </span>
  );
}
