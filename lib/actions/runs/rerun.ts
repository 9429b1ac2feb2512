"use server";

import { z } from "zod";
import { action } from "@/lib/actions/action";
import {
  bulkRerunImpact,
  bulkRerunInput,
  rerunImpact,
  rerunInput,
  rerunRun,
  rerunRuns,
} from "@/lib/automations/runs/rerun";

const one = rerunInput.extend({ runId: z.string().min(1).max(200) });

/** What re-running one run would do (the dialog's sentence), or why it cannot be. */
export const rerunImpactAction = action({ role: "viewer", input: one }, ({ runId, from }, caller) =>
  rerunImpact(caller.tenant.id, runId, { from }),
);

/** Re-runs one run (editors): the new run's id and what it does. */
export const rerunRunAction = action({ role: "editor", input: one }, async ({ runId, from }, caller) => {
  const { run, impact } = await rerunRun(caller, runId, { from });
  return { runId: run.id, impact };
});

/** What re-running the runs a filter picks would do. */
export const bulkRerunImpactAction = action({ role: "viewer", input: bulkRerunInput }, (input, caller) =>
  bulkRerunImpact(caller.tenant.id, input),
);

/** Re-runs the runs a filter picks (editors). */
export const rerunRunsAction = action({ role: "editor", input: bulkRerunInput }, (input, caller) =>
  rerunRuns(caller, input),
);
