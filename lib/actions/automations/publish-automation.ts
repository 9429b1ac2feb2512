"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { action } from "@/lib/actions/action";
import { name } from "@/lib/automations/lifecycle/create";
import { IN_FLIGHT_POLICIES } from "@/lib/automations/lifecycle/policies";
import { publishAutomation } from "@/lib/automations/lifecycle/publish";

const input = z.object({
  id: z.string().min(1).max(200),
  note: z.string().trim().max(500, "keep the change note under 500 characters").default(""),
  /** The policy chosen in the dialog; default: the draft's. */
  inFlightPolicy: z.enum(IN_FLIGHT_POLICIES).optional(),
  /** The name given in the dialog (an unnamed draft); default: the draft's. */
  name: name.optional(),
});

/**
 * Publishes the saved draft as the next version and turns the automation on. Ready issues come
 * back as `issues` (one per problem, with its node or connection) and nothing is published.
 * `published` is false when the draft matched the active version: nothing new was snapshotted
 * (a paused automation is activated again). `message` says what happens to the runs waiting now.
 * `draftRevision` is the draft's new revision: publishing bumps it, so an editor that saves with
 * `baseRevision` must continue from this one.
 */
export const publishAutomationAction = action({ role: "editor", input }, async ({ id, ...body }, caller) => {
  const { automation, published, impact } = await publishAutomation(caller, id, body);
  refresh();
  return {
    version: automation.version,
    published,
    message: impact.message,
    draftRevision: automation.draftRevision,
  };
});
