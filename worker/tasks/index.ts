import type { Task } from "graphile-worker";
import type { TaskName } from "@/lib/jobs";
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

/** One thin task per file; the record type makes a missing handler a compile error. */
export const tasks: Record<TaskName, Task> = {
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
