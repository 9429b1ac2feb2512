import { ButtonLink } from "@/components/ui/button-link";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";

export default function CustomerNotFound() {
  return (
    <Card>
      <EmptyState
        title="Customer not found"
        actions={<ButtonLink href="/customers">Back to customers</ButtonLink>}
      >
        <p>
          This shop has no customer with that id. They may have been deleted, or the link may be mistyped.
        </p>
      </EmptyState>
    </Card>
  );
}
