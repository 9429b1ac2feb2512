import { EntityLink } from "@/components/runs/entity-link";
import { RelativeTime } from "@/components/ui/relative-time";
import { TBody, TD, TH, THead, TR, Table } from "@/components/ui/table";
import type { TaskView } from "@/lib/automations/work/tasks";
import { shortRunId } from "@/lib/automations/runs/short-id";
import { CompleteTaskButton } from "./complete-task-button";
import { RunLink } from "@/components/runs/run-link";

/** Staff tasks created by flows: what to do, about which record, by when, and which run asked. */
export function TasksTable({ items, canEdit }: { items: TaskView[]; canEdit: boolean }) {
  const open = items[0]?.status !== "done";
  return (
    <Table caption={open ? "Open tasks" : "Done tasks"}>
      <THead>
        <TR>
          <TH>Task</TH>
          <TH>Entity</TH>
          <TH>{open ? "Due" : "Done"}</TH>
          <TH>From</TH>
          {canEdit && open && (
            <TH>
              <span className="sr-only">Actions</span>
            </TH>
          )}
        </TR>
      </THead>
      <TBody>
        {items.map((task) => (
          <TR key={task.id} data-testid="task-row">
            <TD className="max-w-96 min-w-48 break-words text-zinc-900">
              {task.title}
              {task.assignee && <span className="block text-xs text-zinc-500">for {task.assignee}</span>}
            </TD>
            <TD className="max-w-48">
              {task.entity ? <EntityLink domain={task.entity.domain} id={task.entity.id} /> : "—"}
            </TD>
            <TD className="whitespace-nowrap text-zinc-600">
              {open ? (
                task.dueAt ? (
                  <RelativeTime value={task.dueAt} />
                ) : (
                  "No due date"
                )
              ) : task.doneAt ? (
                <RelativeTime value={task.doneAt} />
              ) : (
                "—"
              )}
            </TD>
            <TD className="text-zinc-600">
              {task.runId ? (
                <>
                  {task.automationName ?? "A flow"} ·{" "}
                  <RunLink runId={task.runId} className="text-xs">
                    run {shortRunId(task.runId)}
                  </RunLink>
                </>
              ) : (
                "Its run has been purged"
              )}
            </TD>
            {canEdit && open && (
              <TD align="right">
                <CompleteTaskButton taskId={task.id} title={task.title} />
              </TD>
            )}
          </TR>
        ))}
      </TBody>
    </Table>
  );
}
