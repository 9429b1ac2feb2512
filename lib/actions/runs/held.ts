"use server";

import { z } from "zod";
import { action } from "@/lib/actions/action";
import { settleHeldRun, settleHeldRuns } from "@/lib/automations/runs/held";

const one = z.object({ runId: z.string().min(1).max(200), verb: z.enum(["release", "discard"]) });
const all = z.object({ automationId: z.uuid(), verb: z.enum(["release", "discard"]) });

/** Releases or discards one held run from the Held list (editors). */
export const settleHeldRunAction = action({ role: "editor", input: one }, ({ runId, verb }, caller) =>
  settleHeldRun(caller, runId, verb),
);

/** Releases or discards every held run of an automation (the Held list's "Release all" / "Discard all"). */
export const settleHeldRunsAction = action({ role: "editor", input: all }, ({ automationId, verb }, caller) =>
  settleHeldRuns(caller, { automationId }, verb),
);
