import { staffTasks } from "@/lib/db/schema";
import { parseDuration } from "../duration";
import type { DatabaseExecutor } from "../executor";

interface TaskParams {
  title: string;
  dueIn?: string;
  assignee?: string;
}

export const createTaskExecutor: DatabaseExecutor<
  TaskParams,
  { title: string; dueAt: string | null; assignee: string | null }
> = {
  effect: "database",
  prepare: (params, ctx) => ({
    title: ctx.render(params.title),
    dueAt: params.dueIn ? new Date(ctx.now.getTime() + parseDuration(params.dueIn)).toISOString() : null,
    assignee: params.assignee ?? null,
  }),
  async run(tx, request, ctx) {
    const [task] = await tx
      .insert(staffTasks)
      .values({
        tenantId: ctx.tenantId,
        runId: ctx.runId,
        nodeId: ctx.nodeId,
        title: request.title,
        assignee: request.assignee,
        dueAt: request.dueAt ? new Date(request.dueAt) : null,
        domain: ctx.entity?.domain ?? null,
        entityId: ctx.entity?.id ?? null,
      })
      .returning({ id: staffTasks.id });
    return { taskId: task!.id, dueAt: request.dueAt };
  },
};
