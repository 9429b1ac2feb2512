import type { Metadata } from "next";
import { AutomationOpsHeader } from "@/components/runs/automation-tabs";
import { loadAutomationOr404 } from "@/components/runs/load-automation";
import { RunHistory } from "@/components/runs/run-history";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { requireCaller } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Automation runs" };

type Params = Promise<{ id: string }>;
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function AutomationRunsPage({
  params,
  searchParams,
}: {
  params: Params;
  searchParams: SearchParams;
}) {
  const caller = await requireCaller();
  const automation = await loadAutomationOr404(caller.tenant.id, (await params).id);
  return (
    <>
      <AutomationOpsHeader automation={automation} />
      <Card>
        <RunHistory
          tenantId={caller.tenant.id}
          timeZone={caller.tenant.timezone}
          path={`/automations/${automation.id}/runs`}
          params={await searchParams}
          fixedAutomationId={automation.id}
          empty={
            <EmptyState title="This automation has no runs yet">
              <p>
                {automation.status === "active"
                  ? "It runs each time its trigger fires; every run will be listed here, newest first."
                  : "Publish and activate it, and each time its trigger fires a run will be listed here."}
              </p>
            </EmptyState>
          }
        />
      </Card>
    </>
  );
}
