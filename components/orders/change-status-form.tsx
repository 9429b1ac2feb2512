"use client";

import { useId, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Label, Select } from "@/components/ui/form";
import { Notice } from "@/components/ui/notice";
import { useServerAction } from "@/components/ui/hooks/use-server-action";
import { changeOrderStatusAction } from "@/lib/actions/orders/change-order-status";
import { ORDER_STATUS_LABELS, ORDER_STATUS_OPTIONS, isOrderStatus, type OrderStatus } from "./order-status";

type Outcome = { tone: "success" | "error"; text: string } | null;

/**
 * Select + Save for an order's status (editors and admins only; the page does not render it for
 * viewers). The server action refreshes the page, so the badge and the event history update too.
 */
export function ChangeStatusForm({ orderId, current }: { orderId: string; current: string | null }) {
  const [status, setStatus] = useState<OrderStatus>(isOrderStatus(current) ? current : "pending");
  const [outcome, setOutcome] = useState<Outcome>(null);
  const changeOrderStatus = useServerAction(changeOrderStatusAction);
  const selectId = useId();
  const unchanged = status === current;

  function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setOutcome(null);
    changeOrderStatus.run({ id: orderId, status }, (result) => {
      if (!result.ok) setOutcome({ tone: "error", text: result.error });
      else if (!result.data.changed)
        setOutcome({ tone: "success", text: `The order is already ${ORDER_STATUS_LABELS[status]}.` });
      else
        setOutcome({
          tone: "success",
          text: `Status changed to ${ORDER_STATUS_LABELS[result.data.status]}.`,
        });
    });
  }

  return (
    <form onSubmit={save} className="space-y-3">
      <div>
        <Label htmlFor={selectId}>Change status</Label>
        <div className="mt-1.5 flex gap-2">
          <Select
            id={selectId}
            value={status}
            onChange={(e) => {
              if (isOrderStatus(e.target.value)) setStatus(e.target.value);
            }}
          >
            {ORDER_STATUS_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </Select>
          <Button type="submit" variant="primary" pending={changeOrderStatus.pending} disabled={unchanged}>
            Save
          </Button>
        </div>
        <p className="mt-1.5 text-xs text-zinc-500">
          Automations listening for status changes run when you save.
        </p>
      </div>
      {outcome && (
        <Notice tone={outcome.tone} className="py-2">
          {outcome.text}
        </Notice>
      )}
    </form>
  );
}
