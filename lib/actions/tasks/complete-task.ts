"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { action } from "@/lib/actions/action";
import { completeTask } from "@/lib/automations/work/tasks";

const input = z.object({ taskId: z.string().min(1).max(200) });

/** Marks a staff task done (editors and admins); the list re-renders without it. */
export const completeTaskAction = action({ role: "editor", input }, async ({ taskId }, caller) => {
  const task = await completeTask(caller, taskId);
  refresh();
  return { id: task.id, title: task.title };
});
