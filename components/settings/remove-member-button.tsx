"use client";

import { useState } from "react";
import { ConfirmButton } from "@/components/ui/confirm-dialog";
import { useServerAction } from "@/components/ui/hooks/use-server-action";
import { removeUserAction } from "@/lib/actions/users/remove-user";

export function RemoveMemberButton({ userId, email, shop }: { userId: string; email: string; shop: string }) {
  const [error, setError] = useState<string | null>(null);
  const removeUser = useServerAction(removeUserAction);
  return (
    <span className="inline-flex flex-col items-end gap-1">
      <ConfirmButton
        label="Remove"
        ariaLabel={`Remove ${email}`}
        title={`Remove ${email}?`}
        confirmLabel="Remove user"
        pending={removeUser.pending}
        onConfirm={() => {
          setError(null);
          removeUser.run({ userId }, (result) => {
            if (!result.ok) setError(result.error);
          });
        }}
      >
        They lose access to {shop} at once and are signed out. Their login stays if they work for another
        shop, and you can invite them again later.
      </ConfirmButton>
      {error && (
        <span role="alert" className="text-xs text-red-700">
          {error}
        </span>
      )}
    </span>
  );
}
