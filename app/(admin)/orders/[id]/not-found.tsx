import { ButtonLink } from "@/components/ui/button-link";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";

export default function OrderNotFound() {
  return (
    <Card>
      <EmptyState title="Order not found" actions={<ButtonLink href="/orders">Back to orders</ButtonLink>}>
        <p>This shop has no order with that id. It may have been deleted, or the link may be mistyped.</p>
      </EmptyState>
    </Card>
  );
}
