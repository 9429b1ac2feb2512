"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { ConfirmButton } from "@/components/ui/confirm-dialog";
import { useServerAction } from "@/components/ui/hooks/use-server-action";
import { cancelAllWaitsAction } from "@/lib/actions/waits/cancel-all-waits";

/**
 * "Cancel all" for one automation's Waiting list (or the shop's, with `automationId` null), after
 * a confirmation that says what it does.
 */
export function CancelAllWaits({ automationId, name }: { automationId: string | null; name: string }) {
  const scope = automationId ? "this automation" : "every automation in the shop";
  const router = useRouter();
  const cancelAllWaits = useServerAction(cancelAllWaitsAction);
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  return (
    <div className="flex items-center gap-3">
      <span role="status" className={message?.error ? "text-sm text-red-700" : "text-sm text-zinc-600"}>
        {message?.text}
      </span>
      <ConfirmButton
        label="Cancel all"
        ariaLabel={automationId ? `Cancel all waits of ${name}` : "Cancel all waits in the shop"}
        title={automationId ? `Cancel every wait of '${name}'?` : "Cancel every wait in the shop?"}
        confirmLabel="Cancel all waits"
        dismissLabel="Keep them waiting"
        size="md"
        pending={cancelAllWaits.pending}
        onConfirm={() =>
          cancelAllWaits.run({ automationId }, (result) => {
            setMessage(
              result.ok
                ? {
                    error: false,
                    text: `${result.data.cancelled} ${result.data.cancelled === 1 ? "wait" : "waits"} cancelled.`,
                  }
                : { error: true, text: result.error },
            );
            router.refresh();
          })
        }
      >
        <p>
          Every pending wait of {scope} will be cancelled: the steps after them will not run, and their runs
          end as cancelled. Later steps it asked for are dropped too. This cannot be undone.
        </p>
      </ConfirmButton>
    </div>
  );
}
