import type { Task } from "graphile-worker";
import { RunBatcher } from "@/lib/automations/engine/batcher";
import { runLegs } from "@/lib/automations/engine/pipeline";
import { taskPayloads } from "@/lib/jobs";

const batcher = new RunBatcher((waitIds) => runLegs(waitIds.map((waitId) => ({ kind: "resume", waitId }))));

/** Resumes a run at a wait whose time has come, together with the waits due alongside it. */
export const automationResume: Task = async (payload) => {
  const { waitId } = taskPayloads.automation_resume.parse(payload);
  await batcher.submit(waitId);
};
