import { Badge, type BadgeTone } from "@/components/ui/badge";
import { orderStatuses } from "@/lib/domains/domains";

export type OrderStatus = (typeof orderStatuses)[number];

export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  pending: "Pending",
  paid: "Paid",
  fulfilled: "Fulfilled",
  cancelled: "Cancelled",
  refunded: "Refunded",
};

const TONES: Record<OrderStatus, BadgeTone> = {
  pending: "warning",
  paid: "success",
  fulfilled: "info",
  cancelled: "neutral",
  refunded: "danger",
};

export const ORDER_STATUS_OPTIONS = orderStatuses.map((value) => ({
  value,
  label: ORDER_STATUS_LABELS[value],
}));

export function isOrderStatus(value: string | null | undefined): value is OrderStatus {
  return (orderStatuses as readonly string[]).includes(value ?? "");
}

/** The order's status as a badge with its word; an unknown stored status is shown as it is. */
export function OrderStatusBadge({ status }: { status: string | null }) {
  if (!isOrderStatus(status)) return <Badge dot>{status ?? "Unknown"}</Badge>;
  return (
    <Badge tone={TONES[status]} dot>
      {ORDER_STATUS_LABELS[status]}
    </Badge>
  );
}
