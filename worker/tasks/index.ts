import type { Task } from "graphile-worker";
import type { TaskName } from "@/lib/jobs";
import { workerSweep } from "./worker-sweep";

/** One thin task per file; the record type makes a missing handler a compile error. */
export const tasks: Record<TaskName, Task> = {
  worker_sweep: workerSweep,
};
