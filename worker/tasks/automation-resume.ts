import type { Task } from "graphile-worker";
import { RunBatcher } from "@/lib/automations/engine/batcher";
import { soloLimit } from "@/lib/automations/engine/limits";
import { resumeWait } from "@/lib/automations/engine/resume";
import { executeResumeBatch } from "@/lib/automations/engine/resume-batch";
import { taskPayloads } from "@/lib/jobs";

// How a due wait is resumed, in one place for both ways in: the job below, and the worker's
// WakeTimer (worker/run.ts), which takes the jobs of waits due soon at their exact time.

const batcher = new RunBatcher(executeResumeBatch);

/** Resumes a run at a wait whose time has come: batched with waits due alongside, or alone when it must. */
export const automationResume: Task = async (payload) => {
  const { waitId } = taskPayloads.automation_resume.parse(payload);
  if ((await batcher.submit(waitId)) === "alone") await soloLimit(() => resumeWait(waitId));
};

/**
 * Resumes waits whose jobs the WakeTimer holds: batched, then the ones handed back one at a time.
 * Waits for every leg before it settles, even when one fails — the timer releases the jobs on an
 * error, and a job released while its leg still ran here could run the same wait twice at once.
 */
export async function resumeWaits(waitIds: string[]): Promise<void> {
  const { alone } = await executeResumeBatch(waitIds);
  const results = await Promise.allSettled(alone.map((id) => soloLimit(() => resumeWait(id))));
  const failed = results.find((r) => r.status === "rejected");
  if (failed) throw failed.reason;
}
