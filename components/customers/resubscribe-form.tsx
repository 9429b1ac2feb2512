"use client";

import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { FieldHint, Input, Label } from "@/components/ui/form";
import { useServerAction } from "@/components/ui/hooks/use-server-action";
import { resubscribeAction } from "@/lib/actions/customers/resubscribe";

/** Subscribe again, with the reason the audit log keeps ("Asked at the counter on 3 May"). */
export function ResubscribeForm({ customerId }: { customerId: string }) {
  const id = useId();
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  const resubscribe = useServerAction(resubscribeAction);
  return (
    <form
      className="space-y-2"
      onSubmit={(event) => {
        event.preventDefault();
        setError(null);
        resubscribe.run({ customerId, reason }, (result) => {
          if (!result.ok) setError(result.error);
          else setReason("");
        });
      }}
    >
      <Label htmlFor={`${id}-reason`}>Why subscribe them again?</Label>
      <Input
        id={`${id}-reason`}
        value={reason}
        onChange={(event) => setReason(event.target.value)}
        aria-describedby={`${id}-hint`}
        maxLength={500}
        required
      />
      <FieldHint id={`${id}-hint`}>
        Only with the customer&apos;s own say-so; the reason is kept in the audit log.
      </FieldHint>
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      <Button type="submit" variant="secondary" size="sm" disabled={resubscribe.pending}>
        Subscribe to marketing again
      </Button>
    </form>
  );
}
