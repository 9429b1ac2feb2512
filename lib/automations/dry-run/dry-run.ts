import { z } from "zod";
import type { Caller } from "@/lib/identity/caller";
import { DOMAIN_LABELS } from "@/lib/domains/domains";
import { entityLabel } from "@/lib/domains/labels";
import { parseOrThrow } from "@/lib/errors";
import { tokenRecord } from "@/lib/automations/nodes/context";
import { hasRecord } from "@/lib/automations/nodes/registry";
import { getAutomation } from "@/lib/automations/lifecycle/read";
import { walkLegs } from "./legs";
import type { DryRunResult, Trail } from "./result";
import { graphToTry, startOf, triggerStep, type DryRunStart } from "./start";

/**
 * The dry run ("try it now", seed 003): the leg pipeline in a mode that takes no effect. It walks
 * an automation's graph leg by leg against a real record or a pasted payload and says what each
 * step would do, writing nothing. Each stage is the pipeline's own — so what it predicts,
 * failures and their messages included, is what a run does:
 *
 *   1. The graph (`graphToTry`, start.ts): the draft or the editor's unsaved graph, refused with
 *      its ready issues; a flow with a code step only for editors.
 *   2. The start (`startOf`, start.ts): the first trigger, its event, and the record as a run
 *      loads it — as it is now, and with its status pinned for the first leg.
 *   3. The legs (`walkLegs`, legs.ts): each built by `newLeg`, planned by the interpreter
 *      (`walkFrom`), advanced by the engine's walk (`nextAction`) in the dry run's mode — the
 *      conditions decided, the waits it would make — in the order their waits come due.
 *   4. The actions (`tryAction`, effect.ts): prepared by `prepareAction` and described, not done;
 *      a code step's script run in the sandbox, its actions and what follows it joining the leg
 *      (`actionDone`); a failure ending its branch (`endBranch`).
 *   5. The reply (`closingNotes`, `replyOf`): the steps, the path to light, and in `notes` what
 *      the dry run cannot know (an action's output, the record after a wait, a decision).
 */

export const dryRunInput = z.strictObject({
  entityId: z.string().optional(),
  payload: z.record(z.string(), z.unknown()).optional(),
  graph: z.unknown().optional(),
});

export async function dryRun(caller: Caller, automationId: string, body: unknown): Promise<DryRunResult> {
  const input = parseOrThrow(dryRunInput, body ?? {}, "The dry run is invalid");
  const automation = await getAutomation(caller.tenant.id, automationId);
  const graph = graphToTry(caller, input.graph === undefined ? automation.draftGraph : input.graph);
  const notes = ["Nothing was saved or sent: this was a dry run."];
  const start = await startOf(caller, graph, input, notes);
  const trail: Trail = {
    steps: [triggerStep(start)],
    nodeIds: new Set([start.trigger.id]),
    edgeIds: new Set(),
    notes,
    legs: 0,
    readsSteps: false,
    approvals: 0,
  };
  await walkLegs({ tenantId: caller.tenant.id, timeZone: caller.tenant.timezone, automation }, start, trail);
  closingNotes(start, trail);
  return replyOf(caller, start, trail);
}

/** What the dry run could not know, now that the walk is done. */
function closingNotes(
  { domain }: DryRunStart,
  { legs, approvals, eventWaits = 0, readsSteps, notes }: Trail,
): void {
  if (legs > 1 && hasRecord(domain)) {
    const one = DOMAIN_LABELS[domain].one;
    notes.push(
      `When a wait ends, the real run reads the ${one} again, so the steps after it see the ${one} as it is then; this dry run shows it as it is now.`,
    );
  }
  if (approvals > 0) {
    notes.push(
      "A dry run cannot know what someone will decide, so after an approval it follows 'Timed out'; in a real run an approval or a rejection follows 'Approved' or 'Rejected'.",
    );
  }
  if (eventWaits > 0) {
    notes.push(
      "A dry run cannot know whether an event will come, so after a wait for an event it follows 'Timed out'; in a real run the event, when it comes in time, follows 'Received'.",
    );
  }
  if (readsSteps) {
    notes.push(
      "Outputs of earlier actions ({steps.…}) only exist in a real run, so they come out empty here.",
    );
  }
}

function replyOf(caller: Caller, { pinned, current }: DryRunStart, trail: Trail): DryRunResult {
  return {
    steps: trail.steps,
    path: { nodeIds: [...trail.nodeIds], edgeIds: [...trail.edgeIds] },
    entity: pinned
      ? {
          domain: pinned.domain,
          id: pinned.id,
          label: entityLabel(pinned.domain, pinned.id, current?.data ?? pinned.data),
        }
      : null,
    tokenRecord: tokenRecord(pinned),
    timeZone: caller.tenant.timezone,
    notes: trail.notes,
  };
}
