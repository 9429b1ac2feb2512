"use server";

import { z } from "zod";
import { action } from "@/lib/actions/action";
import { backtest, backtestInput } from "@/lib/automations/backtest/backtest";

const input = backtestInput.extend({ automationId: z.string().min(1).max(200) });

/**
 * Replays the automation's latest real runs through the editor's graph with no effects (the
 * publish dialog's "Try on the last 50 real runs", the editor's Backtest panel). Editors only, as
 * publishing is.
 */
export const backtestAction = action({ role: "editor", input }, async ({ automationId, ...body }, caller) =>
  backtest(caller, automationId, body),
);
