"use client";

import { useState } from "react";
import { ConfirmButton } from "@/components/ui/confirm-dialog";
import { useServerAction } from "@/components/ui/hooks/use-server-action";
import { revokeApiKeyAction } from "@/lib/actions/api-keys/revoke-api-key";

/** Revoke, after a confirmation that says what breaks. Errors show beside the button. */
export function RevokeApiKeyButton({ id, name, prefix }: { id: string; name: string; prefix: string }) {
  const [error, setError] = useState<string | null>(null);
  const revokeApiKey = useServerAction(revokeApiKeyAction);
  return (
    <span className="inline-flex flex-col items-end gap-1">
      <ConfirmButton
        label="Revoke"
        ariaLabel={`Revoke ${name} (${prefix}…)`}
        title={`Revoke “${name}” (${prefix}…)?`}
        confirmLabel="Revoke key"
        pending={revokeApiKey.pending}
        onConfirm={() => {
          setError(null);
          revokeApiKey.run({ id }, (result) => {
            if (!result.ok) setError(result.error);
          });
        }}
      >
        Anything using this key stops working at once: its next request is refused with 401. This cannot be
        undone.
      </ConfirmButton>
      {error && (
        <span role="alert" className="text-xs text-red-700">
          {error}
        </span>
      )}
    </span>
  );
}
