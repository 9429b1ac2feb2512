import type { Task } from "graphile-worker";
import { fanOut } from "@/lib/automations/schedules/fanout";
import { taskPayloads } from "@/lib/jobs";

/** Creates the runs of one schedule fire, batch by batch (resumes from its cursor if retried). */
export const scheduleFanout: Task = async (payload) => {
  const { fireId } = taskPayloads.schedule_fanout.parse(payload);
  await fanOut(fireId);
};
