import type { Metadata } from "next";
import Link from "next/link";
import { ApprovalsInbox, type InboxView } from "@/components/approvals/approvals-inbox";
import { LinkedApprovalNotice } from "@/components/approvals/linked-approval-notice";
import { firstParam } from "@/components/entities/fields";
import { StaleLinkNotice } from "@/components/entities/stale-link-notice";
import { ButtonLink } from "@/components/ui/button-link";
import { Card } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { hasRole } from "@/lib/identity/roles";
import { requireCaller } from "@/lib/auth/session";
import { findApproval } from "@/lib/automations/waits/approval-reads";
import { listApprovals } from "@/lib/automations/waits/approvals";
import { AppError } from "@/lib/errors";

export const metadata: Metadata = { title: "Approvals" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const TABS: { view: InboxView; label: string; href: string }[] = [
  { view: "pending", label: "Waiting for a decision", href: "/approvals" },
  { view: "all", label: "All approvals", href: "/approvals?status=all" },
];

/**
 * The Approvals inbox: runs held at an Approval step, soonest to time out first, each with Approve
 * and Reject for those who may decide. An approver's email links to `?wait=<waitId>`, which marks
 * that approval (or says what became of it when it is no longer waiting).
 */
export default async function ApprovalsPage({ searchParams }: { searchParams: SearchParams }) {
  const caller = await requireCaller();
  const params = await searchParams;
  const view: InboxView = firstParam(params.status) === "all" ? "all" : "pending";
  const cursor = firstParam(params.cursor);
  const wait = firstParam(params.wait) ?? null;
  const path = view === "all" ? "/approvals?status=all" : "/approvals";

  let page;
  try {
    page = await listApprovals(caller.tenant.id, { status: view, cursor, limit: 50 });
  } catch (error) {
    if (error instanceof AppError && error.status < 500 && error.status !== 404)
      return <StaleLinkNotice error={error.message} firstPage={path} />;
    throw error;
  }
  // The linked approval, when it is not on this page: decided, timed out, or further down.
  const linked =
    wait && !page.items.some((item) => item.waitId === wait)
      ? await findApproval(caller.tenant.id, wait)
      : null;
  const canEdit = hasRole(caller.role, "editor");

  return (
    <>
      <PageHeader
        title="Approvals"
        description="Runs held at an Approval step until someone decides. Approve or reject here or on the run's page; an approval nobody decides in time follows its 'Timed out' path."
      />
      <Card>
        <nav aria-label="Approvals" className="flex gap-1 border-b border-zinc-200 px-5">
          {TABS.map((tab) => (
            <Link
              key={tab.view}
              href={tab.href}
              aria-current={view === tab.view ? "page" : undefined}
              className={cn(
                "-mb-px border-b-2 px-3 py-3 text-sm font-medium",
                view === tab.view
                  ? "border-zinc-900 text-zinc-900"
                  : "border-transparent text-zinc-600 hover:text-zinc-900",
              )}
            >
              {tab.label}
            </Link>
          ))}
        </nav>
        <ApprovalsInbox
          initial={page}
          view={view}
          cursor={cursor}
          role={caller.role}
          highlight={wait}
          missing={
            wait && !page.items.some((item) => item.waitId === wait) ? (
              <LinkedApprovalNotice approval={linked} />
            ) : null
          }
          empty={
            view === "pending" ? (
              <EmptyState
                title="No approvals are waiting"
                actions={
                  canEdit ? (
                    <ButtonLink href="/automations/new" variant="primary">
                      New automation
                    </ButtonLink>
                  ) : undefined
                }
              >
                <p>
                  Add an Approval step to a flow to hold runs for a person&apos;s decision. When a run reaches
                  it, it waits here and editors and admins get an email; whoever approves or rejects it sends
                  the run down that path, and if nobody decides in time it follows &apos;Timed out&apos;.
                </p>
                {canEdit && (
                  <p>The template &ldquo;Hold orders over €1,000 for review&rdquo; is a good start.</p>
                )}
              </EmptyState>
            ) : (
              <EmptyState title="No approvals yet">
                <p>
                  Every approval a flow asks for is listed here once asked: who decided what and when, or that
                  it timed out.
                </p>
              </EmptyState>
            )
          }
        />
      </Card>
    </>
  );
}
