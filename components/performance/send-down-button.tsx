"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { useServerAction } from "@/components/ui/hooks/use-server-action";
import { sendDownBranchAction } from "@/lib/actions/automations/send-down-branch";

/**
 * "Send everyone down Group B": saves a draft with the split replaced by the branch, then opens
 * the editor on it, where the merchant reviews and publishes as usual.
 */
export function SendDownButton({
  automationId,
  splitId,
  branch,
  label,
}: {
  automationId: string;
  splitId: string;
  branch: string;
  label: string;
}) {
  const sendDownBranch = useServerAction(sendDownBranchAction);
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="flex flex-col items-end gap-1">
      <Button
        variant="primary"
        size="sm"
        pending={sendDownBranch.pending}
        onClick={() => {
          setError(null);
          sendDownBranch.run({ id: automationId, splitId, branch }, (result) => {
            // A full load, not a client push: the editor reads the draft and its revision when it
            // loads, and this draft was saved outside it.
            // eslint-disable-next-line @next/next/no-location-assign-relative-destination
            if (result.ok) window.location.assign(`/automations/${automationId}`);
            else setError(result.error);
          });
        }}
      >
        Send everyone down {label}
      </Button>
      {error && (
        <p role="alert" className="text-xs font-medium text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
