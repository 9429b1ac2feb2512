import type { Metadata } from "next";
import { AiBuilder } from "@/components/automations/ai-builder";
import { TemplateGallery } from "@/components/automations/template-gallery";
import { ButtonLink } from "@/components/ui/button-link";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { hasRole } from "@/lib/identity/roles";
import { requireCaller } from "@/lib/auth/session";
import { aiConfig } from "@/lib/automations/ai/provider";
import { AUTOMATION_TEMPLATES } from "@/lib/automations/lifecycle/templates";

export const metadata: Metadata = { title: "New automation" };

export default async function NewAutomationPage() {
  const caller = await requireCaller();
  const back = { href: "/automations", label: "Automations" };

  if (!hasRole(caller.role, "editor")) {
    return (
      <>
        <PageHeader title="New automation" back={back} />
        <Card>
          <EmptyState
            title="Only editors and admins create automations"
            actions={<ButtonLink href="/automations">Back to automations</ButtonLink>}
          >
            <p>You can read every automation and its runs. Ask a shop admin if you need to build one.</p>
          </EmptyState>
        </Card>
      </>
    );
  }

  return (
    <>
      <PageHeader
        title="New automation"
        description="Start from a flow that already works, or from a blank one. Either way it starts as a draft: nothing runs until it is published."
        back={back}
      />
      <div className="space-y-8">
        <AiBuilder configured={aiConfig() !== null} />
        <TemplateGallery templates={AUTOMATION_TEMPLATES} />
      </div>
    </>
  );
}
