import type { Task } from "graphile-worker";
import { fireLater } from "@/lib/automations/engine/later";
import { taskPayloads } from "@/lib/jobs";

/** A later step came due: start the run it asked for. */
export const automationLater: Task = async (payload) => {
  const { waitId } = taskPayloads.automation_later.parse(payload);
  await fireLater(waitId);
};
