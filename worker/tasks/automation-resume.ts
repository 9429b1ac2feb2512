import type { Task } from "graphile-worker";
import { RunBatcher } from "@/lib/automations/engine/batcher";
import { soloLimit } from "@/lib/automations/engine/limits";
import { resumeWait } from "@/lib/automations/engine/resume";
import { executeResumeBatch } from "@/lib/automations/engine/resume-batch";
import { taskPayloads } from "@/lib/jobs";

const batcher = new RunBatcher(executeResumeBatch);

/** Resumes a run at a wait whose time has come: batched with waits due alongside, or alone when it must. */
export const automationResume: Task = async (payload) => {
  const { waitId } = taskPayloads.automation_resume.parse(payload);
  if ((await batcher.submit(waitId)) === "alone") await soloLimit(() => resumeWait(waitId));
};
