import type { Metadata } from "next";
import { firstParam } from "@/components/entities/fields";
import { CancelAllWaits } from "@/components/runs/cancel-all-waits";
import { WaitingPageBody } from "@/components/runs/waiting-page-body";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { hasRole } from "@/lib/identity/roles";
import { requireCaller } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Waiting" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function WaitingPage({ searchParams }: { searchParams: SearchParams }) {
  const caller = await requireCaller();
  const canEdit = hasRole(caller.role, "editor");
  return (
    <>
      <PageHeader
        title="Waiting"
        description="Every run paused at a wait or a later step across the shop, soonest due first. To cancel all of one automation's waits, open its name."
        actions={canEdit ? <CancelAllWaits automationId={null} name="the shop" /> : undefined}
      />
      <Card>
        <WaitingPageBody
          tenantId={caller.tenant.id}
          automationId={null}
          cursor={firstParam((await searchParams).cursor)}
          path="/waiting"
          canEdit={canEdit}
          isAdmin={hasRole(caller.role, "admin")}
        />
      </Card>
    </>
  );
}
