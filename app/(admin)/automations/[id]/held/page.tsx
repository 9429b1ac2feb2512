import type { Metadata } from "next";
import { CapsForm } from "@/components/automations/caps-form";
import { MessagePriorityForm } from "@/components/automations/message-priority-form";
import { AutomationOpsHeader } from "@/components/runs/automation-tabs";
import { HeldRuns } from "@/components/runs/held-runs";
import { loadAutomationOr404 } from "@/components/runs/load-automation";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { requireCaller } from "@/lib/auth/session";
import { listRuns } from "@/lib/automations/runs/history";
import { hasRole } from "@/lib/identity/roles";

export const metadata: Metadata = { title: "Held runs" };

type Params = Promise<{ id: string }>;

export default async function AutomationHeldPage({ params }: { params: Params }) {
  const caller = await requireCaller();
  const canEdit = hasRole(caller.role, "editor");
  const automation = await loadAutomationOr404(caller.tenant.id, (await params).id);
  const held = await listRuns(caller.tenant.id, { status: "held", automationId: automation.id, limit: 100 });
  return (
    <>
      <AutomationOpsHeader automation={automation} />
      <Card className="mb-4">
        <CardHeader
          title="Caps"
          description="Limits on how many runs start. They hold from the next run on, without publishing a new version."
        />
        <CardBody>
          <CapsForm automationId={automation.id} caps={automation.caps} canEdit={canEdit} />
        </CardBody>
      </Card>
      <Card className="mb-4">
        <CardHeader
          title="Message priority"
          description="For its marketing messages, when the shop's limit per customer defers them (Settings → Shop)."
        />
        <CardBody>
          <MessagePriorityForm
            automationId={automation.id}
            priority={automation.messaging.priority}
            expireAfterHours={automation.messaging.expireAfterHours}
            canEdit={canEdit}
          />
        </CardBody>
      </Card>
      <Card>
        <HeldRuns automationId={automation.id} name={automation.name} initial={held} canEdit={canEdit} />
      </Card>
    </>
  );
}
