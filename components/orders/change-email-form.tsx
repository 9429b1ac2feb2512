"use client";

import { useId, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Input, Label } from "@/components/ui/form";
import { Notice } from "@/components/ui/notice";
import { useServerAction } from "@/components/ui/hooks/use-server-action";
import { changeOrderEmailAction } from "@/lib/actions/orders/change-order-email";

type Outcome = { tone: "success" | "error"; text: string } | null;

/**
 * The order's email, editable in place (editors and admins; the page shows viewers the address
 * alone): a typo'd address is corrected here before an automation emails it.
 */
export function ChangeEmailForm({ orderId, current }: { orderId: string; current: string | null }) {
  const [email, setEmail] = useState(current ?? "");
  const [outcome, setOutcome] = useState<Outcome>(null);
  const changeOrderEmail = useServerAction(changeOrderEmailAction);
  const inputId = useId();
  const unchanged = email.trim() === (current ?? "");

  function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setOutcome(null);
    changeOrderEmail.run({ id: orderId, email: email.trim() }, (result) => {
      setOutcome(
        result.ok
          ? { tone: "success", text: `Email changed to ${result.data.email}.` }
          : { tone: "error", text: result.error },
      );
    });
  }

  return (
    <form onSubmit={save} noValidate className="space-y-3">
      <div>
        <Label htmlFor={inputId}>Email</Label>
        <div className="mt-1.5 flex gap-2">
          <Input
            id={inputId}
            type="email"
            autoComplete="off"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            className="min-w-0 flex-1"
          />
          <Button
            type="submit"
            variant="secondary"
            pending={changeOrderEmail.pending}
            disabled={unchanged || !email.trim()}
            aria-label="Save email"
          >
            Save
          </Button>
        </div>
      </div>
      {outcome && (
        <Notice tone={outcome.tone} className="py-2">
          {outcome.text}
        </Notice>
      )}
    </form>
  );
}
