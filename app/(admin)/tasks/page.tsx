import type { Metadata } from "next";
import Link from "next/link";
import { firstParam } from "@/components/entities/fields";
import { AutoRefresh } from "@/components/runs/auto-refresh";
import { Pager } from "@/components/entities/pager";
import { StaleLinkNotice } from "@/components/entities/stale-link-notice";
import { TasksTable } from "@/components/tasks/tasks-table";
import { Card } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { hasRole } from "@/lib/identity/roles";
import { requireCaller } from "@/lib/auth/session";
import { listTasks } from "@/lib/automations/work/tasks";
import { AppError } from "@/lib/errors";

export const metadata: Metadata = { title: "Tasks" };

const PAGE_SIZE = 25;

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function TasksPage({ searchParams }: { searchParams: SearchParams }) {
  const caller = await requireCaller();
  const params = await searchParams;
  const status = firstParam(params.status) === "done" ? "done" : "open";
  const cursor = firstParam(params.cursor);
  let page;
  let problem: string | null = null;
  try {
    page = await listTasks(caller.tenant.id, { status, cursor, limit: PAGE_SIZE });
  } catch (error) {
    if (error instanceof AppError && error.status < 500) problem = error.message;
    else throw error;
  }
  return (
    <>
      <PageHeader
        title="Tasks"
        description="To-dos that flows created for your staff, such as “call this customer if the order is still unpaid”."
      />
      <Card>
        <AutoRefresh />
        <nav aria-label="Tasks" className="flex gap-1 border-b border-zinc-200 px-5">
          {(["open", "done"] as const).map((value) => (
            <Link
              key={value}
              href={value === "open" ? "/tasks" : "/tasks?status=done"}
              aria-current={status === value ? "page" : undefined}
              className={cn(
                "-mb-px border-b-2 px-3 py-3 text-sm font-medium",
                status === value
                  ? "border-zinc-900 text-zinc-900"
                  : "border-transparent text-zinc-600 hover:text-zinc-900",
              )}
            >
              {value === "open" ? "Open" : "Done"}
            </Link>
          ))}
        </nav>
        {problem || !page ? (
          <StaleLinkNotice error={problem} firstPage="/tasks" />
        ) : page.items.length === 0 ? (
          <EmptyState title={status === "open" ? "No open tasks" : "No tasks done yet"}>
            <p>
              {status === "open"
                ? "A Create task step in a flow adds a to-do here, tied to its order or customer, with a due time if it has one. Mark it done when it is handled."
                : "Tasks marked done are kept here, newest first."}
            </p>
          </EmptyState>
        ) : (
          <>
            <TasksTable items={page.items} canEdit={hasRole(caller.role, "editor")} />
            <Pager
              path="/tasks"
              params={{ status: status === "done" ? "done" : undefined }}
              nextCursor={page.nextCursor}
              paged={Boolean(cursor)}
              shown={page.items.length}
              noun={{ one: "task", many: "tasks" }}
            />
          </>
        )}
      </Card>
    </>
  );
}
