import type { Task } from "graphile-worker";
import { RunBatcher } from "@/lib/automations/engine/batcher";
import { runLegs } from "@/lib/automations/engine/pipeline";
import { taskPayloads } from "@/lib/jobs";

// How a due wait is resumed, in one place for both ways in: the job below, and the worker's
// WakeTimer (worker/run.ts), which takes the jobs of waits due soon at their exact time.
const resume = (waitIds: string[], release?: () => void, jobIds?: ReadonlyMap<string, string>) =>
  runLegs(
    waitIds.map((waitId) => ({ kind: "resume", waitId, jobId: jobIds?.get(waitId) })),
    release,
  );

const batcher = new RunBatcher(resume);

/** Resumes a run at a wait whose time has come, together with the waits due alongside it. */
export const automationResume: Task = async (payload, helpers) => {
  const { waitId } = taskPayloads.automation_resume.parse(payload);
  await batcher.submit(waitId, helpers.job.id);
};

/**
 * Resumes waits whose jobs the WakeTimer holds, as one batch. Returns once every leg has ended,
 * even when one fails — the timer releases the jobs on an error, and a job released while its leg
 * still ran here could run the same wait twice at once.
 */
export async function resumeWaits(waitIds: string[]): Promise<void> {
  const failed = [...(await resume(waitIds)).values()].find((outcome) => outcome instanceof Error);
  if (failed) throw failed;
}
