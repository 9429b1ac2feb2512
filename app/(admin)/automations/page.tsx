import type { Metadata } from "next";
import { FlowExplainer } from "@/components/automations/flow-explainer";
import { ButtonLink } from "@/components/ui/button-link";
import { Card, CardBody } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { requireCaller } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Automations" };

export default async function AutomationsPage() {
  await requireCaller();
  return (
    <>
      <PageHeader
        title="Automations"
        description="Flows that react to what happens in your shop and do the follow-up work for you."
      />
      <Card>
        <EmptyState
          title="No automations yet"
          actions={
            <ButtonLink href="/orders" variant="secondary">
              See the orders automations will react to
            </ButtonLink>
          }
        >
          <p>
            An automation starts with a <strong className="font-medium text-zinc-800">trigger</strong>, checks{" "}
            <strong className="font-medium text-zinc-800">conditions</strong>, then runs{" "}
            <strong className="font-medium text-zinc-800">actions</strong>. A{" "}
            <strong className="font-medium text-zinc-800">wait</strong> can pause it for minutes, days or
            until someone approves, and it picks up later against the order or customer as it is then.
          </p>
          <p>
            The visual editor arrives soon. When it does, this page lists each automation with its status
            (draft, active or paused) and its published version.
          </p>
        </EmptyState>
        <CardBody className="border-t border-zinc-200 bg-zinc-50/60 px-6 py-6">
          <h2 className="mb-3 text-sm font-semibold text-zinc-900">Example: ask big spenders for a review</h2>
          <FlowExplainer />
        </CardBody>
      </Card>
    </>
  );
}
