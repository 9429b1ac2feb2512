import { ButtonLink } from "@/components/ui/button-link";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";

export default function RunNotFound() {
  return (
    <Card>
      <EmptyState title="This run was not found" actions={<ButtonLink href="/runs">Back to runs</ButtonLink>}>
        <p>
          It may belong to another shop, or its history was purged. The runs list shows every run this shop
          has.
        </p>
      </EmptyState>
    </Card>
  );
}
