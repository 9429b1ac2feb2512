"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { action } from "@/lib/actions/action";
import { brakeImpact, engageBrake, releaseBrake } from "@/lib/automations/brake/brake";

const none = z.object({});

/** Read-only: what pulling the brake now would do, as the confirm dialog's sentence. */
export const getBrakeImpactAction = action({ role: "viewer", input: none }, async (_input, caller) =>
  brakeImpact(caller.tenant.id),
);

/** Pulls the emergency brake: every active automation paused, waiting runs held (admins). */
export const pullBrakeAction = action({ role: "admin", input: none }, async (_input, caller) => {
  const { brake, impact } = await engageBrake(caller);
  refresh();
  return { automations: brake.automations, waitingRuns: impact.waitingRuns };
});

/** Releases it: exactly the automations it paused resume, and the runs it held (admins). */
export const releaseBrakeAction = action({ role: "admin", input: none }, async (_input, caller) => {
  const released = await releaseBrake(caller);
  refresh();
  return { resumedAutomations: released.resumedAutomations, heldWaits: released.heldWaits };
});
