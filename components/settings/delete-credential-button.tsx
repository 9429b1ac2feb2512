"use client";

import { useState } from "react";
import { ConfirmButton } from "@/components/ui/confirm-dialog";
import { useServerAction } from "@/components/ui/hooks/use-server-action";
import { deleteCredentialAction } from "@/lib/actions/credentials/delete-credential";
import { masked } from "@/lib/credentials/kinds";

/**
 * Delete, after a confirmation naming the automations that refer to it. While an active one
 * uses it the store refuses (409) and its message, naming them, shows beside the button.
 */
export function DeleteCredentialButton({
  id,
  name,
  last4,
  usedBy,
  alertRules = [],
}: {
  id: string;
  name: string;
  last4: string;
  usedBy: string[];
  /** The alert rules that send through it: the dialog names them, and confirming deletes anyway. */
  alertRules?: string[];
}) {
  const [error, setError] = useState<string | null>(null);
  const deleteCredential = useServerAction(deleteCredentialAction);
  return (
    <span className="inline-flex flex-col items-end gap-1">
      <ConfirmButton
        label="Delete"
        ariaLabel={`Delete ${name} (${masked(last4)})`}
        title={`Delete “${name}” (${masked(last4)})?`}
        confirmLabel="Delete credential"
        pending={deleteCredential.pending}
        onConfirm={() => {
          setError(null);
          // The dialog named the alert rules that use it: confirming it is the admin's confirmation.
          deleteCredential.run({ id, ...(alertRules.length > 0 ? { confirm: true } : {}) }, (result) => {
            if (!result.ok) setError(result.error);
          });
        }}
      >
        {usedBy.length > 0
          ? `${usedBy.map((n) => `“${n}”`).join(", ")} ${usedBy.length === 1 ? "refers" : "refer"} to it: a step that needs it fails until it is given another. `
          : "No automation refers to it. "}
        {alertRules.length > 0 &&
          `Alerts go through it (${alertRules.join(", ")}): they send nothing until given another channel. `}
        Its value is gone for good; this cannot be undone.
      </ConfirmButton>
      {error && (
        <span role="alert" className="max-w-xs text-right text-xs text-red-700">
          {error}
        </span>
      )}
    </span>
  );
}
