"use server";

import { z } from "zod";
import { action } from "@/lib/actions/action";
import { IN_FLIGHT_POLICIES, saveDraft } from "@/lib/automations/service";

const input = z.object({
  id: z.string().min(1).max(200),
  graph: z.unknown().optional(),
  name: z.string().max(200).optional(),
  inFlightPolicy: z.enum(IN_FLIGHT_POLICIES).optional(),
  /** The revision the editor last saw; a newer one on the server means another tab saved. */
  baseRevision: z.number().int().min(1),
});

/**
 * Autosave of the flow editor: stores the draft (never the active version) and returns the new
 * revision, so the next save can prove nobody else saved in between (409 → a conflict notice).
 */
export const saveDraftAction = action({ role: "editor", input }, async ({ id, ...body }, caller) => {
  const automation = await saveDraft(caller, id, body);
  return {
    draftRevision: automation.draftRevision,
    name: automation.name,
    inFlightPolicy: automation.inFlightPolicy,
    hasUnpublishedChanges: automation.hasUnpublishedChanges,
    updatedAt: automation.updatedAt,
  };
});
