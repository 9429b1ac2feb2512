"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { action } from "@/lib/actions/action";
import { IN_FLIGHT_POLICIES } from "@/lib/automations/lifecycle/policies";
import { revertToVersion } from "@/lib/automations/lifecycle/versions";

const input = z.object({
  id: z.string().min(1).max(200),
  version: z.number("choose a version").int().min(1, "choose a version"),
  /** Keep this policy instead of the one the old version brings back. */
  inFlightPolicy: z.enum(IN_FLIGHT_POLICIES).optional(),
});

/**
 * Publishes an old version's steps, name and policy (or the policy chosen in the dialog) as a new version (history stays append-only)
 * and replaces the draft with them. Returns the new version and the draft's new revision.
 */
export const revertVersionAction = action(
  { role: "editor", input },
  async ({ id, version, inFlightPolicy }, caller) => {
    const automation = await revertToVersion(caller, id, String(version), { inFlightPolicy });
    refresh();
    return { version: automation.version, draftRevision: automation.draftRevision };
  },
);
