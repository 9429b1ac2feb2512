import type { Task } from "graphile-worker";
import type { TaskName } from "@/lib/jobs";
import { metrics } from "@/lib/metrics/metrics";
import { alertEvaluate } from "./alert-evaluate";
import { alertSend } from "./alert-send";
import { approvalRemind } from "./approval-remind";
import { automationExecute } from "./automation-execute";
import { automationLater } from "./automation-later";
import { automationReap } from "./automation-reap";
import { automationResume } from "./automation-resume";
import { automationStorm } from "./automation-storm";
import { connectionDelivery } from "./connection-delivery";
import { connectionPrune } from "./connection-prune";
import { emailSend } from "./email-send";
import { scheduleFanout } from "./schedule-fanout";
import { scheduleTickTask } from "./schedule-tick";
import { workerSweep } from "./worker-sweep";

/**
 * Counts how long a job waited for a worker once it was due (`tillflow_queue_wait_seconds`): from
 * its `run_at`, or for backlog work, whose `run_at` is a fair-share tag in the past, from when it
 * was queued.
 */
function timed(task: TaskName, handler: Task): Task {
  return (payload, helpers) => {
    const { run_at: runAt, created_at: createdAt } = helpers.job;
    const dueAt = Math.max(new Date(runAt).getTime(), new Date(createdAt).getTime());
    metrics().queueWait.observe({ task }, Math.max(0, Date.now() - dueAt) / 1000);
    return handler(payload, helpers);
  };
}

/** One thin task per file; the record type makes a missing handler a compile error. */
const handlers: Record<TaskName, Task> = {
  worker_sweep: workerSweep,
  automation_reap: automationReap,
  automation_execute: automationExecute,
  automation_resume: automationResume,
  automation_later: automationLater,
  automation_storm: automationStorm,
  schedule_tick: scheduleTickTask,
  schedule_fanout: scheduleFanout,
  email_send: emailSend,
  connection_delivery: connectionDelivery,
  connection_prune: connectionPrune,
  approval_remind: approvalRemind,
  alert_evaluate: alertEvaluate,
  alert_send: alertSend,
};

export const tasks = Object.fromEntries(
  Object.entries(handlers).map(([name, handler]) => [name, timed(name as TaskName, handler)]),
) as Record<TaskName, Task>;
