"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmButton } from "@/components/ui/confirm-dialog";
import { useServerAction } from "@/components/ui/hooks/use-server-action";
import { resendInvitationAction } from "@/lib/actions/users/resend-invitation";
import { revokeInvitationAction } from "@/lib/actions/users/revoke-invitation";
import { InvitationLink } from "./invitation-link";

/** Re-send (a new link, shown once) or revoke one pending invitation. */
export function InvitationActions({ id, email }: { id: string; email: string }) {
  const [error, setError] = useState<string | null>(null);
  const [link, setLink] = useState<string | null>(null);
  const resendInvitation = useServerAction(resendInvitationAction);
  const revokeInvitation = useServerAction(revokeInvitationAction);
  const pending = resendInvitation.pending || revokeInvitation.pending;
  return (
    <span className="inline-flex flex-col items-end gap-2">
      <span className="inline-flex gap-2">
        <Button
          size="sm"
          pending={pending}
          aria-label={`Re-send the invitation to ${email}`}
          onClick={() => {
            setError(null);
            resendInvitation.run({ id }, (result) => {
              if (!result.ok) setError(result.error);
              else setLink(result.data.link);
            });
          }}
        >
          Re-send
        </Button>
        <ConfirmButton
          label="Revoke"
          ariaLabel={`Revoke the invitation to ${email}`}
          title={`Revoke the invitation to ${email}?`}
          confirmLabel="Revoke invitation"
          pending={pending}
          onConfirm={() => {
            setError(null);
            revokeInvitation.run({ id }, (result) => {
              if (!result.ok) setError(result.error);
            });
          }}
        >
          Its link stops working at once. You can invite them again later.
        </ConfirmButton>
      </span>
      {link && (
        <span className="max-w-md text-left">
          <InvitationLink email={email} link={link} onHide={() => setLink(null)} />
        </span>
      )}
      {error && (
        <span role="alert" className="text-xs text-red-700">
          {error}
        </span>
      )}
    </span>
  );
}
