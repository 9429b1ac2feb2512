import type { Metadata } from "next";
import { firstParam } from "@/components/entities/fields";
import { AutomationOpsHeader } from "@/components/runs/automation-tabs";
import { CancelAllWaits } from "@/components/runs/cancel-all-waits";
import { loadAutomationOr404 } from "@/components/runs/load-automation";
import { WaitingPageBody } from "@/components/runs/waiting-page-body";
import { Card } from "@/components/ui/card";
import { hasRole } from "@/lib/identity/roles";
import { requireCaller } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Waiting" };

type Params = Promise<{ id: string }>;
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function AutomationWaitingPage({
  params,
  searchParams,
}: {
  params: Params;
  searchParams: SearchParams;
}) {
  const caller = await requireCaller();
  const canEdit = hasRole(caller.role, "editor");
  const automation = await loadAutomationOr404(caller.tenant.id, (await params).id);
  const path = `/automations/${automation.id}/waiting`;
  return (
    <>
      <AutomationOpsHeader
        automation={automation}
        actions={canEdit ? <CancelAllWaits automationId={automation.id} name={automation.name} /> : undefined}
      />
      <Card>
        <WaitingPageBody
          tenantId={caller.tenant.id}
          automationId={automation.id}
          cursor={firstParam((await searchParams).cursor)}
          path={path}
          canEdit={canEdit}
          isAdmin={hasRole(caller.role, "admin")}
        />
      </Card>
    </>
  );
}
