"use server";

import { z } from "zod";
import { action } from "@/lib/actions/action";
import { dryRun, dryRunInput } from "@/lib/automations/dry-run/dry-run";

const input = dryRunInput.extend({ automationId: z.string().min(1).max(200) });

/**
 * Tries an automation without side effects: the editor sends its unsaved graph and the record to
 * try it on, and gets back each step's outcome and the path to highlight. A dry run changes
 * nothing, so every member may run it, viewers included.
 */
export const dryRunAction = action({ role: "viewer", input }, async ({ automationId, ...body }, caller) =>
  dryRun(caller, automationId, body),
);
