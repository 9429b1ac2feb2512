import type { Metadata } from "next";
import Link from "next/link";
import { firstParam } from "@/components/entities/fields";
import { Pager } from "@/components/entities/pager";
import { StaleLinkNotice } from "@/components/entities/stale-link-notice";
import { Card, CardHeader } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { EmptyState } from "@/components/ui/empty-state";
import { RelativeTime } from "@/components/ui/relative-time";
import { listAudit, type AuditItem } from "@/lib/audit/log";
import { AUDIT_KINDS, auditSentence, type AuditKind } from "@/lib/audit/words";
import { hasRole } from "@/lib/identity/roles";
import { requireCaller } from "@/lib/auth/session";
import { automationNames } from "@/lib/automations/store/automation-names";
import { AppError } from "@/lib/errors";

export const metadata: Metadata = { title: "Activity" };

const PAGE_SIZE = 30;
const KINDS = Object.keys(AUDIT_KINDS) as AuditKind[];

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** The automation an entry is about, for entries whose detail names it by id only (waits). */
function automationIdOf(item: AuditItem): string | null {
  if (item.subjectType === "automation") return item.subjectId;
  const id = item.detail.automationId;
  return typeof id === "string" ? id : null;
}

export default async function ActivityPage({ searchParams }: { searchParams: SearchParams }) {
  const caller = await requireCaller();
  if (!hasRole(caller.role, "admin")) {
    return (
      <Card>
        <EmptyState title="Only an admin can see the shop's activity.">
          <p>
            You are signed in as {caller.role === "editor" ? "an editor" : "a viewer"}. The activity log shows
            who published, paused, reverted or decided what in {caller.tenant.name}; ask one of the
            shop&apos;s admins if you need to know.
          </p>
        </EmptyState>
      </Card>
    );
  }

  const params = await searchParams;
  const kindParam = firstParam(params.kind);
  const kind = KINDS.find((k) => k === kindParam);
  const cursor = firstParam(params.cursor);
  let page;
  let problem: string | null = null;
  try {
    page = await listAudit(caller.tenant.id, { cursor, action: kind, limit: PAGE_SIZE });
  } catch (error) {
    if (error instanceof AppError && error.status < 500) problem = error.message;
    else throw error;
  }
  const names = page
    ? await automationNames(caller.tenant.id, [
        ...new Set(page.items.map(automationIdOf).filter((id): id is string => id !== null)),
      ])
    : new Map<string, string>();

  return (
    <Card>
      <CardHeader
        title="Activity"
        description={`Who changed what in ${caller.tenant.name}, and when: publishes, pauses, reverts, approvals, cancelled waits, users, API keys and settings.`}
      />
      <nav aria-label="Filter activity" className="flex flex-wrap gap-2 border-b border-zinc-200 px-5 py-3">
        {[
          { key: undefined, label: "All" },
          ...KINDS.map((k) => ({ key: k, label: AUDIT_KINDS[k].label })),
        ].map((option) => {
          const active = option.key === kind;
          return (
            <Link
              key={option.label}
              href={option.key ? `/settings/activity?kind=${option.key}` : "/settings/activity"}
              aria-current={active ? "page" : undefined}
              className={cn(
                "rounded-full border px-3 py-1 text-sm",
                active
                  ? "border-zinc-900 bg-zinc-900 text-white"
                  : "border-zinc-300 text-zinc-700 hover:border-zinc-400",
              )}
            >
              {option.label}
            </Link>
          );
        })}
      </nav>
      {problem || !page ? (
        <StaleLinkNotice error={problem} firstPage="/settings/activity" />
      ) : page.items.length === 0 ? (
        <EmptyState title={kind ? "Nothing of this kind yet" : "No activity yet"}>
          <p>
            Publishing, pausing or reverting an automation, deciding an approval or adding a user shows up
            here.
          </p>
        </EmptyState>
      ) : (
        <>
          <ol className="divide-y divide-zinc-200">
            {page.items.map((item) => {
              const automationId = automationIdOf(item);
              return (
                <li
                  key={item.id}
                  data-testid="activity-row"
                  className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 px-5 py-3"
                >
                  <p className="text-sm text-zinc-900">
                    {auditSentence(item, automationId ? names.get(automationId) : null)}
                  </p>
                  <RelativeTime value={item.at} className="text-xs whitespace-nowrap text-zinc-500" />
                </li>
              );
            })}
          </ol>
          <Pager
            path="/settings/activity"
            params={{ kind }}
            nextCursor={page.nextCursor}
            paged={Boolean(cursor)}
            shown={page.items.length}
            noun={{ one: "entry", many: "entries" }}
          />
        </>
      )}
    </Card>
  );
}
