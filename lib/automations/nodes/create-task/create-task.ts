import { z } from "zod";
import { describeDuration, DURATION_PATTERN } from "../duration";
import { line, paramsObject, text } from "../params";
import type { NodeDefinition } from "../types";
import { text as shown, when } from "../sentences";

const createTaskParams = paramsObject({
  title: line(200),
  dueIn: text().regex(DURATION_PATTERN, "must be a duration such as 30m, 2h or 3d").optional(),
  assignee: z.email("must be an email address").optional(),
});

export const createTask = {
  type: "auto.action.create_task" as const,
  category: "action",
  label: "Create task",
  description: "Adds a to-do for the shop's staff, optionally due after a while and assigned to someone.",
  params: createTaskParams,
  defaultParams: () => ({ title: "" }),
  handles: { in: true, out: ["out"] },
  templated: ["title"],
  summarise: ({ title, dueIn }) =>
    `Create task '${title}'${dueIn ? `, due in ${describeDuration(dueIn)}` : ""}`,
  describeDryRun: (request, { timeZone }) => {
    const due = typeof request.dueAt === "string" ? `, due ${when(request.dueAt, timeZone)}` : "";
    const assignee = typeof request.assignee === "string" ? `, assigned to ${request.assignee}` : "";
    return [`Would create the task '${shown(request.title)}'${due}${assignee}.`];
  },
} satisfies NodeDefinition<typeof createTaskParams>;
