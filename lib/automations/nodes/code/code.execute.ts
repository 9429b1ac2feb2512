import { z } from "zod";
import { runScript } from "@/lib/automations/nodes/code/pool";
import { eventView, tokenRecord } from "@/lib/automations/nodes/context";
import { ActionError, type ActionOutput, type FollowUp, type OutsideExecutor } from "../executor";

interface CodeRequest extends Record<string, unknown> {
  source: string;
}

const followUpSchema = z.object({
  result: z.record(z.string(), z.unknown()),
  actions: z.array(z.object({ type: z.string(), params: z.record(z.string(), z.unknown()) })),
});

/**
 * Runs a code step's script on the script pool (code/pool.ts), outside the phase's transaction (a script may take up
 * to a second). Its output records what it returned and the actions it asked for; the engine
 * takes those actions next, each as its own step with its own delivery (`followUp`), so a replay
 * after a crash reads this list instead of running the script again, and no action is doubled.
 */
export const codeExecutor: OutsideExecutor<{ source: string }, CodeRequest> = {
  effect: "outside",
  ownLimit: "script pool",
  prepare: ({ source }) => ({ source }),
  request: z.object({ source: z.string() }),
  async send(request, ctx): Promise<ActionOutput> {
    const outcome = await runScript(ctx.tenantId, request.source, {
      event: eventView(ctx.event),
      entity: tokenRecord(ctx.entity),
      steps: ctx.steps,
      variables: {},
    });
    if (!outcome.ok) throw new ActionError(outcome.error, { line: outcome.line, ms: outcome.ms });
    return { result: outcome.result, actions: outcome.actions, ms: outcome.ms };
  },
  resendReason: "Ran again after an interruption; the actions it asked for are taken once.",
  followUp(output): FollowUp {
    const { result, actions } = followUpSchema.parse(output);
    return { output: result, actions };
  },
};
