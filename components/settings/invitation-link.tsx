"use client";

import { useId } from "react";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Input } from "@/components/ui/form";

/** An invitation's link, shown once after it is sent: the admin may pass it on by another way. */
export function InvitationLink({ email, link, onHide }: { email: string; link: string; onHide: () => void }) {
  const id = useId();
  return (
    <div className="rounded-lg border border-amber-300 bg-amber-50 p-4" data-testid="invitation-link">
      <p className="text-sm font-semibold text-amber-900" role="status">
        Invitation sent to {email}.
      </p>
      <p className="mt-1 text-sm text-amber-900">
        They get it by email. You can also copy the link and give it to them yourself: it is shown only now,
        works once and for 7 days. Whoever opens it can accept, so share it only with them.
      </p>
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <label htmlFor={id} className="sr-only">
          Invitation link
        </label>
        <Input
          id={id}
          readOnly
          value={link}
          onFocus={(e) => e.currentTarget.select()}
          fullWidth={false}
          className="min-w-0 flex-1 font-mono text-xs"
        />
        <CopyButton value={link} label="Copy link" size="md" />
      </div>
      <Button size="sm" variant="ghost" className="mt-3" onClick={onHide}>
        Hide the link
      </Button>
    </div>
  );
}
