import { apiRoute, readJson } from "@/lib/api/route";
import { parseOrThrow } from "@/lib/errors";
import { sendDownInput, sendEveryoneDownBranch } from "@/lib/automations/lifecycle/keep-branch";

/**
 * "Send everyone down the winner" (editor): `{ branch }` → the automation with a new draft in which
 * the split step `stepId` is replaced by that branch, to review and publish as usual.
 */
export const POST = apiRoute<{ id: string; stepId: string }>(
  { role: "editor" },
  async ({ req, params, caller }) => {
    const { branch } = parseOrThrow(sendDownInput, await readJson(req), "Which branch to keep is not clear");
    return sendEveryoneDownBranch(caller, params.id, { splitId: params.stepId, branch });
  },
);
