import { z } from "zod";
import type { Caller } from "@/lib/identity/caller";
import { AppError, parseOrThrow } from "@/lib/errors";
import { keepBranch } from "@/lib/automations/graph/keep-branch";
import { registry } from "@/lib/automations/nodes/registry";
import { getAutomation, type AutomationView } from "./read";
import { saveDraft } from "./save-draft";

export const keepBranchInput = z.strictObject({
  /** The split step's id. */
  splitId: z.string().min(1).max(100),
  /** The branch everyone goes down from now on (its id, the split's out handle). */
  branch: z.string().min(1).max(100),
});

/** `POST /api/v1/automations/:id/splits/:stepId/send-down`'s body: the split is in the path. */
export const sendDownInput = keepBranchInput.pick({ branch: true });

/**
 * "Send everyone down Group B": saves a draft in which the split is replaced by that branch
 * (`graph/keep-branch.ts`), to publish as usual — the in-flight policy then applies to runs
 * waiting inside the split's other branches. It starts from the draft when the draft still has the
 * split (edits since are kept), else from the published version.
 */
export async function sendEveryoneDownBranch(
  caller: Caller,
  automationId: string,
  body: unknown,
): Promise<AutomationView> {
  const input = parseOrThrow(keepBranchInput, body, "Which branch to keep is not clear");
  const automation = await getAutomation(caller.tenant.id, automationId);
  const isSplit = (type: string) => {
    const definition = registry.get(type);
    return definition !== undefined && registry.isSplit(definition);
  };
  const hasSplit = (graph: AutomationView["draftGraph"] | null) =>
    graph?.nodes.some((n) => n.id === input.splitId && isSplit(n.type)) ?? false;
  const from = hasSplit(automation.draftGraph) ? automation.draftGraph : automation.activeGraph;
  const graph =
    from && hasSplit(from)
      ? keepBranch(from, input.splitId, input.branch, (n) => registry.get(n.type)?.category === "trigger")
      : null;
  if (!graph)
    throw new AppError(
      422,
      "invalid",
      `This automation has no split '${input.splitId}' with a branch '${input.branch}'.`,
    );
  return saveDraft(caller, automationId, { graph, baseRevision: automation.draftRevision });
}
