import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Caller } from "@/lib/identity/caller";
import { getDb } from "@/lib/db/client";
import { automationRuns, staffTasks } from "@/lib/db/schema";
import { AppError, isUuid, notFound, parseOrThrow } from "@/lib/errors";
import { automationNames } from "@/lib/automations/store/automation-names";
import { decodePreciseCursor, encodePreciseCursor, preciseTimestamp } from "@/lib/pagination/precise-cursor";

/** Staff to-dos created by flows (`auto.action.create_task`): open ones to work on, done ones kept. */
export const tasksQuery = z.object({
  status: z.enum(["open", "done"], "must be open or done").default("open"),
  cursor: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/** One staff task (`GET /api/v1/tasks`, and the reply to completing one). */
export interface TaskView {
  id: string;
  title: string;
  status: "open" | "done";
  /** Whom the flow assigned it to, as the step said (free text). */
  assignee: string | null;
  /** The record it is about, or null for none. */
  entity: { domain: string; id: string } | null;
  dueAt: string | null;
  /** The run that created it (null once that run is purged). */
  runId: string | null;
  nodeId: string | null;
  /** The automation of that run (null without one; always null in the reply to completing a task). */
  automationId: string | null;
  /** That automation's current name (null when it was deleted since, or with no automation id). */
  automationName: string | null;
  doneAt: string | null;
  createdAt: string;
}

/** A page of tasks (`GET /api/v1/tasks`). */
export interface TaskPage {
  items: TaskView[];
  /** The cursor of the next page; null on the last. */
  nextCursor: string | null;
}

type TaskRow = typeof staffTasks.$inferSelect;

function taskView(t: TaskRow, automationId: string | null, automationName: string | null): TaskView {
  return {
    id: t.id,
    title: t.title,
    status: t.status,
    assignee: t.assignee,
    entity: t.domain && t.entityId ? { domain: t.domain, id: t.entityId } : null,
    dueAt: t.dueAt?.toISOString() ?? null,
    runId: t.runId,
    nodeId: t.nodeId,
    automationId,
    automationName,
    doneAt: t.doneAt?.toISOString() ?? null,
    createdAt: t.createdAt.toISOString(),
  };
}

/** Tasks of one status, newest first, keyset-paginated on (created_at, id) over `staff_tasks_tenant_idx`. */
export async function listTasks(tenantId: string, query: unknown = {}): Promise<TaskPage> {
  const q = parseOrThrow(tasksQuery, query, "The tasks query is invalid");
  const after = q.cursor ? decodePreciseCursor(q.cursor) : null;
  const t = staffTasks;
  const rows = await getDb()
    .select({
      task: t,
      at: sql<string>`${sql.raw(preciseTimestamp('"staff_tasks"."created_at"'))}`,
      automationId: automationRuns.automationId,
    })
    .from(t)
    .leftJoin(automationRuns, eq(automationRuns.id, t.runId))
    .where(
      and(
        eq(t.tenantId, tenantId),
        eq(t.status, q.status),
        after ? sql`(${t.createdAt}, ${t.id}) < (${after.at}::timestamptz, ${after.id}::uuid)` : undefined,
      ),
    )
    .orderBy(sql`${t.createdAt} desc nulls last`, sql`${t.id} desc nulls last`)
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  const last = page.at(-1);
  const names = await automationNames(
    tenantId,
    page.flatMap((row) => (row.automationId ? [row.automationId] : [])),
  );
  return {
    items: page.map((row) =>
      taskView(row.task, row.automationId, row.automationId ? (names.get(row.automationId) ?? null) : null),
    ),
    nextCursor: rows.length > q.limit && last ? encodePreciseCursor(last.at, last.task.id) : null,
  };
}

/** Marks an open task done, recording who and when. A second "done" is a 409. */
export async function completeTask(caller: Caller, id: string): Promise<TaskView> {
  if (!isUuid(id)) throw notFound("That task");
  const [existing] = await getDb()
    .select()
    .from(staffTasks)
    .where(and(eq(staffTasks.tenantId, caller.tenant.id), eq(staffTasks.id, id)));
  if (!existing) throw notFound("That task");
  const [done] = await getDb()
    .update(staffTasks)
    .set({
      status: "done",
      doneAt: new Date(),
      // API keys are not users: the task records a person only when one did it.
      doneBy: caller.actor.kind === "user" ? caller.actor.userId : null,
    })
    .where(and(eq(staffTasks.id, existing.id), eq(staffTasks.status, "open")))
    .returning();
  if (!done) throw new AppError(409, "conflict", "This task is already done.");
  return taskView(done, null, null);
}
