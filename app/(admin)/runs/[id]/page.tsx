import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { RunDetail } from "@/components/runs/run-detail";
import { requireCaller } from "@/lib/auth/session";
import { getRun } from "@/lib/automations/runs/detail";
import { forRole } from "@/lib/automations/nodes/editor-only";
import { AppError } from "@/lib/errors";

export const metadata: Metadata = { title: "Run" };

type Params = Promise<{ id: string }>;

export default async function RunPage({ params }: { params: Params }) {
  const caller = await requireCaller();
  const { id } = await params;
  let run;
  try {
    run = await getRun(caller.tenant.id, id);
  } catch (error) {
    // Another shop's run, or an id that could never exist, is simply not found.
    if (error instanceof AppError && error.status === 404) notFound();
    throw error;
  }
  // A viewer's page holds no editor-only params (a webhook trigger's address), as the API's replies.
  return <RunDetail initial={forRole(run, caller.role)} role={caller.role} />;
}
