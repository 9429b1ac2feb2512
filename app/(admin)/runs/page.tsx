import type { Metadata } from "next";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Card, CardBody } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { requireCaller } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Runs" };

const RUN_STATUSES: Array<{ label: string; tone: BadgeTone; meaning: string }> = [
  {
    label: "Waiting",
    tone: "info",
    meaning: "Paused at a wait step until its time comes or someone approves; nothing is lost meanwhile.",
  },
  { label: "Succeeded", tone: "success", meaning: "Every action did its work." },
  { label: "Partial", tone: "warning", meaning: "Some actions failed; the run shows which and why." },
  { label: "Failed", tone: "danger", meaning: "No action succeeded, or the run hit an error." },
  {
    label: "Cancelled",
    tone: "neutral",
    meaning: "The automation was paused or edited while the run waited, so it stopped without acting.",
  },
];

export default async function RunsPage() {
  await requireCaller();
  return (
    <>
      <PageHeader
        title="Runs"
        description="The history of every automation execution: what triggered it, each step, and how it ended."
      />
      <Card>
        <EmptyState title="No runs yet">
          <p>
            Each time an automation fires for an order, a customer or a schedule, it creates a run. This page
            will list every run, newest first, filterable by automation and status, and each run opens on its
            steps.
          </p>
          <p>Runs appear here once you have an active automation.</p>
        </EmptyState>
        <CardBody className="border-t border-zinc-200 bg-zinc-50/60 px-6 py-6">
          <h2 className="mb-3 text-sm font-semibold text-zinc-900">What a run&apos;s status tells you</h2>
          <dl className="space-y-3">
            {RUN_STATUSES.map((s) => (
              <div key={s.label} className="flex items-start gap-3">
                <dt className="w-24 shrink-0">
                  <Badge tone={s.tone} dot>
                    {s.label}
                  </Badge>
                </dt>
                <dd className="text-sm text-zinc-600">{s.meaning}</dd>
              </div>
            ))}
          </dl>
        </CardBody>
      </Card>
    </>
  );
}
