"use server";

import { z } from "zod";
import { action } from "@/lib/actions/action";
import { graphSchema, type Graph } from "@/lib/automations/graph/schema";
import { IN_FLIGHT_POLICIES } from "@/lib/automations/lifecycle/policies";
import { saveDraft } from "@/lib/automations/lifecycle/save-draft";
import { movedSecretParams } from "@/lib/credentials/externalise";

const input = z.object({
  id: z.string().min(1).max(200),
  graph: z.unknown().optional(),
  name: z.string().max(200).optional(),
  inFlightPolicy: z.enum(IN_FLIGHT_POLICIES).optional(),
  /** The revision the editor last saw; a newer one on the server means another tab saved. */
  baseRevision: z.number().int().min(1),
});

/** The saved graph parsed `submitted` already; a draft without a graph moved nothing. */
function movedSecrets(submitted: unknown, saved: Graph): Record<string, Record<string, unknown>> {
  const parsed = graphSchema.safeParse(submitted);
  return parsed.success ? movedSecretParams(parsed.data, saved) : {};
}

/**
 * Autosave of the flow editor: stores the draft (never the active version) and returns the new
 * revision, so the next save can prove nobody else saved in between (409 → a conflict notice),
 * and the params of steps whose typed-in secrets it stored as credentials.
 */
export const saveDraftAction = action({ role: "editor", input }, async ({ id, ...body }, caller) => {
  const automation = await saveDraft(caller, id, body);
  return {
    draftRevision: automation.draftRevision,
    name: automation.name,
    inFlightPolicy: automation.inFlightPolicy,
    hasUnpublishedChanges: automation.hasUnpublishedChanges,
    updatedAt: automation.updatedAt,
    // Steps whose typed-in secrets became credentials: their saved params hold only references.
    movedSecrets: movedSecrets(body.graph, automation.draftGraph),
  };
});
