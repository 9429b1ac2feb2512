import type { Task } from "graphile-worker";
import { taskPayloads } from "@/lib/jobs";
import { pauseOnStorm } from "@/lib/automations/lifecycle/pause-on-storm";

/** Pauses an automation whose hourly cap held a run, when its caps ask for it. */
export const automationStorm: Task = async (payload, helpers) => {
  const { automationId } = taskPayloads.automation_storm.parse(payload);
  if ((await pauseOnStorm(automationId)) === "paused")
    helpers.logger.info(
      `Paused automation ${automationId}: its hourly cap held a run and it pauses on a storm.`,
    );
};
