import type { Metadata } from "next";
import Link from "next/link";
import { RunHistory } from "@/components/runs/run-history";
import { StatusLegend } from "@/components/runs/status-legend";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { ButtonLink } from "@/components/ui/button-link";
import { PageHeader } from "@/components/ui/page-header";
import { requireCaller } from "@/lib/auth/session";
import { automationOptions } from "@/lib/automations/store/automation-names";

export const metadata: Metadata = { title: "Runs" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function RunsPage({ searchParams }: { searchParams: SearchParams }) {
  const caller = await requireCaller();
  const params = await searchParams;
  return (
    <>
      <PageHeader
        title="Runs"
        description="The history of every automation execution: what triggered it, each step, and how it ended."
        actions={<ButtonLink href="/waiting">Waiting list</ButtonLink>}
      />
      <Card>
        <RunHistory
          tenantId={caller.tenant.id}
          timeZone={caller.tenant.timezone}
          path="/runs"
          params={params}
          automations={await automationOptions(caller.tenant.id)}
          defaultPlatform="mine"
          empty={
            <>
              <EmptyState title="No runs yet">
                <p>
                  Each time an automation fires for an order, a customer or a schedule, it creates a run. This
                  page lists every run, newest first, filterable by automation, status, entity and date, and
                  each run opens on its steps.
                </p>
                <p>Runs appear here once you have an active automation.</p>
                <p>
                  This list shows your own automations&apos; runs; the platform&apos;s built-in jobs are under{" "}
                  <Link href="/runs?platform=builtin" className="underline">
                    Made by: Built-in
                  </Link>
                  .
                </p>
              </EmptyState>
              <StatusLegend />
            </>
          }
        />
      </Card>
    </>
  );
}
