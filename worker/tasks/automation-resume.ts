import type { Task } from "graphile-worker";
import { resumeWait } from "@/lib/automations/engine/resume";
import { taskPayloads } from "@/lib/jobs";

/** Resumes a run at a wait whose time has come. */
export const automationResume: Task = async (payload) => {
  const { waitId } = taskPayloads.automation_resume.parse(payload);
  await resumeWait(waitId);
};
