import type { DbOrTx } from "@/lib/db/client";
import type { AutomationCaps } from "@/lib/db/schema";
import { enqueueJobs } from "@/lib/jobs";
import { decideCaps } from "@/lib/automations/caps/decide";
import { lockAndCountCaps } from "@/lib/automations/caps/usage";
import type { Listener } from "../listeners";
import type { PlannedRun } from "./plan";

/** An automation's caps by its id (null: none). */
export type CapsOf = (automationId: string) => AutomationCaps | null;

/** The caps of the listeners a start was planned from. */
export function capsOfListeners(listeners: Listener[]): CapsOf {
  const capsById = new Map(listeners.map((l) => [l.id, l.caps]));
  return (id) => capsById.get(id) ?? null;
}

/** Whether any of `runs` belongs to an automation with caps: only then is there anything to decide. */
export const anyCapped = (runs: PlannedRun[], capsOf: CapsOf) => runs.some((r) => capsOf(r.automationId));

/**
 * Holds the planned runs that pass a cap of their automation (caps/), in the caller's transaction:
 * locks the capped automations' starts, counts what they started (one query per kind of cap for
 * all of `runs`, never one per run), marks the runs over a cap with their reason, and adds an
 * `automation_storm` job for each automation with `pauseOnStorm` whose hourly cap held a run.
 * Runs of automations without caps pass through untouched, with no query.
 *
 * Every start that a trigger asks for comes through here — events, record changes, webhooks, API
 * ingest, later steps, schedule fan-outs — so a cap holds them all alike. What a person asks for
 * explicitly (a re-run, a release of held runs) does not (insert.ts `startPlanned`, release.ts).
 */
export async function holdOverCaps(
  tx: DbOrTx,
  tenantId: string,
  runs: PlannedRun[],
  capsOf: CapsOf,
): Promise<PlannedRun[]> {
  if (!anyCapped(runs, capsOf)) return runs;
  const usage = await lockAndCountCaps(tx, tenantId, runs, capsOf);
  const { heldReasons, stormed } = decideCaps(runs, capsOf, usage);
  const pausing = stormed.filter((id) => capsOf(id)?.pauseOnStorm);
  await enqueueJobs(
    tx,
    pausing.map((automationId) => ({
      task: "automation_storm" as const,
      payload: { automationId },
      jobKey: `storm:${automationId}`,
    })),
  );
  return runs.map((run, i) => ({ ...run, heldReason: heldReasons[i] ?? null }));
}
