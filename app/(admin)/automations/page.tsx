import Link from "next/link";
import type { Metadata } from "next";
import { ActiveToggle, ActiveToggleNotices } from "@/components/automations/active-toggle";
import { PullBrakeButton } from "@/components/automations/brake-controls";
import { brakeState } from "@/lib/automations/brake/brake";
import { ArchiveButton, RestoreButton } from "@/components/automations/archive-button";
import {
  AUTOMATION_STATUS_OPTIONS,
  AutomationStatusBadge,
  isListedStatus,
} from "@/components/automations/automation-status";
import { FlowExplainer } from "@/components/automations/flow-explainer";
import { firstParam } from "@/components/entities/fields";
import { ListToolbar } from "@/components/entities/list-toolbar";
import { StaleLinkNotice } from "@/components/entities/stale-link-notice";
import { Pager } from "@/components/entities/pager";
import { Badge } from "@/components/ui/badge";
import { ButtonLink } from "@/components/ui/button-link";
import { Card, CardBody } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { RelativeTime } from "@/components/ui/relative-time";
import { TBody, TD, TH, THead, TR, Table } from "@/components/ui/table";
import { hasRole } from "@/lib/identity/roles";
import { requireCaller } from "@/lib/auth/session";
import { registry } from "@/lib/automations/nodes/registry";
import { listAutomations, type AutomationListItem } from "@/lib/automations/lifecycle/list";
import { AppError } from "@/lib/errors";
import { formatMoney } from "@/lib/money/format";
import { revenueLast30Days, type Money } from "@/lib/automations/performance/report";

export const metadata: Metadata = { title: "Automations" };

const PAGE_SIZE = 20;

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

async function loadPage(tenantId: string, query: { status?: string; q?: string; cursor?: string }) {
  try {
    return { page: await listAutomations(tenantId, { ...query, limit: PAGE_SIZE }), error: null };
  } catch (error) {
    // A stale or hand-edited cursor is the only user error here; anything else is a real failure.
    if (error instanceof AppError && error.status < 500) return { page: null, error: error.message };
    throw error;
  }
}

export default async function AutomationsPage({ searchParams }: { searchParams: SearchParams }) {
  const caller = await requireCaller();
  const canEdit = hasRole(caller.role, "editor");
  // Built-in automations belong to the platform: only admins pause or change them.
  const isAdmin = hasRole(caller.role, "admin");
  const params = await searchParams;
  const q = firstParam(params.q);
  const rawStatus = firstParam(params.status);
  const status = isListedStatus(rawStatus) ? rawStatus : undefined;
  const cursor = firstParam(params.cursor);
  const { page, error } = await loadPage(caller.tenant.id, { status, q, cursor });
  const brake = await brakeState(caller.tenant.id);
  const revenue = await revenueLast30Days(caller.tenant.id);
  const filtered = Boolean(q || status);
  // Built-ins (the platform's own jobs) do not count: a shop with none of its own flows is still new.
  const builtins = page?.items.filter((item) => item.builtin) ?? [];
  const empty = page !== null && page.items.length === builtins.length && !filtered && !cursor;
  // A shop whose own flows are all archived still needs a way to the Archived filter.
  const hasArchived =
    empty && (await listAutomations(caller.tenant.id, { status: "archived", limit: 1 })).items.length > 0;

  return (
    <>
      <PageHeader
        title="Automations"
        description="Flows that react to what happens in your shop and do the follow-up work for you."
        actions={
          (canEdit && !empty) || (isAdmin && !brake.on) ? (
            <div className="flex flex-wrap items-start gap-2">
              {/* The emergency brake: admins, while it is off (the banner releases it). */}
              {isAdmin && !brake.on && <PullBrakeButton size="md" />}
              {canEdit && !empty && (
                <ButtonLink href="/automations/new" variant="primary">
                  New automation
                </ButtonLink>
              )}
            </div>
          ) : undefined
        }
      />
      {empty ? (
        <>
          <FirstAutomation canEdit={canEdit} hasArchived={hasArchived} />
          {builtins.length > 0 && (
            <Card className="mt-6">
              <ActiveToggleNotices>
                <AutomationsTable
                  revenue={revenue}
                  items={builtins}
                  canEdit={canEdit}
                  isAdmin={isAdmin}
                  caption="Built-in automations"
                />
              </ActiveToggleNotices>
            </Card>
          )}
        </>
      ) : (
        <Card>
          {/* Around the whole card: an Archive or Restore that empties the list keeps its notice. */}
          <ActiveToggleNotices>
            <ListToolbar
              path="/automations"
              searchHint="name"
              q={q}
              status={{ value: status, options: AUTOMATION_STATUS_OPTIONS }}
            />
            {error || !page ? (
              <StaleLinkNotice error={error} firstPage="/automations" />
            ) : page.items.length === 0 ? (
              <EmptyState
                title="No automations match these filters"
                actions={<ButtonLink href="/automations">Clear filters</ButtonLink>}
              >
                <p>Try another search or status. Search looks at the automation&apos;s name.</p>
              </EmptyState>
            ) : (
              <>
                <AutomationsTable items={page.items} canEdit={canEdit} isAdmin={isAdmin} revenue={revenue} />
                <Pager
                  path="/automations"
                  params={{ q, status }}
                  nextCursor={page.nextCursor}
                  paged={Boolean(cursor)}
                  shown={page.items.length}
                  noun={{ one: "automation", many: "automations" }}
                />
              </>
            )}
          </ActiveToggleNotices>
        </Card>
      )}
    </>
  );
}

/** The label of the automation's first trigger, e.g. "Order paid"; a draft may have none yet. */
function triggerLabel(item: AutomationListItem): string | null {
  const first = item.triggerTypes[0];
  if (!first) return null;
  const label = registry.get(first)?.label ?? first;
  const more = item.triggerTypes.length - 1;
  return more > 0 ? `${label} (+${more} more)` : label;
}

function AutomationsTable({
  items,
  canEdit,
  isAdmin,
  caption = "Automations",
  revenue,
}: {
  items: AutomationListItem[];
  canEdit: boolean;
  isAdmin: boolean;
  caption?: string;
  /** Attributed revenue of the last 30 days, by automation, per currency. */
  revenue: Map<string, Money[]>;
}) {
  return (
    <Table caption={caption}>
      <THead>
        <TR>
          <TH>Name</TH>
          <TH>Status</TH>
          <TH>Published</TH>
          <TH>Trigger</TH>
          <TH>Last run</TH>
          <TH align="right">Revenue, last 30 days</TH>
          <TH align="right">
            <span className="sr-only">Runs </span>Waiting
          </TH>
          {canEdit && (
            <TH>
              <span className="sr-only">Actions</span>
            </TH>
          )}
        </TR>
      </THead>
      <TBody>
        {items.map((item) => {
          const trigger = triggerLabel(item);
          return (
            <TR key={item.id} className="hover:bg-zinc-50" data-testid="automation-row">
              <TD className="max-w-80 min-w-48 font-medium break-words text-zinc-900">
                <Link href={`/automations/${item.id}`} className="hover:text-indigo-700 hover:underline">
                  {item.name}
                </Link>
                {item.builtin && (
                  <Badge tone="info" className="ml-2 align-middle">
                    Built-in
                  </Badge>
                )}
              </TD>
              <TD>
                <AutomationStatusBadge status={item.status} />
              </TD>
              <TD className="whitespace-nowrap">
                {item.version > 0 ? (
                  `v${item.version}`
                ) : (
                  <span className="text-zinc-500">Never published</span>
                )}
              </TD>
              <TD className="whitespace-nowrap">
                {trigger ?? <span className="text-zinc-500">No trigger yet</span>}
              </TD>
              <TD className="whitespace-nowrap text-zinc-500">
                {item.lastRunAt ? <RelativeTime value={item.lastRunAt} /> : "No runs yet"}
              </TD>
              <TD align="right" className="whitespace-nowrap tabular-nums" data-testid="automation-revenue">
                <Link href={`/automations/${item.id}/performance`} className="hover:underline">
                  {revenue.has(item.id) ? (
                    // One amount per currency, side by side: never added together.
                    revenue
                      .get(item.id)!
                      .map((m) => formatMoney(Number(m.amount), m.currency))
                      .join(" · ")
                  ) : (
                    <span className="text-zinc-500">
                      —<span className="sr-only">no attributed revenue</span>
                    </span>
                  )}
                </Link>
              </TD>
              <TD align="right" className="tabular-nums">
                {item.waitingRuns}
              </TD>
              {canEdit && (
                <TD align="right">
                  <div className="flex items-center justify-end gap-2">
                    {(item.status === "active" || item.status === "paused") && (!item.builtin || isAdmin) && (
                      <ActiveToggle
                        id={item.id}
                        name={item.name}
                        status={item.status}
                        waitingRuns={item.waitingRuns}
                      />
                    )}
                    {/* Built-ins are never archived (pause or reset them instead). */}
                    {item.status === "archived" ? (
                      <RestoreButton id={item.id} name={item.name} />
                    ) : (
                      !item.builtin && <ArchiveButton id={item.id} name={item.name} />
                    )}
                  </div>
                </TD>
              )}
            </TR>
          );
        })}
      </TBody>
    </Table>
  );
}

/** The empty state teaches the parts of a flow, then offers the templates (editors and admins). */
function FirstAutomation({ canEdit, hasArchived }: { canEdit: boolean; hasArchived: boolean }) {
  return (
    <Card>
      <EmptyState
        title="No automations yet"
        actions={
          <>
            {canEdit && (
              <ButtonLink href="/automations/new" variant="primary">
                New automation
              </ButtonLink>
            )}
            <ButtonLink href="/orders" variant="secondary">
              See the orders automations will react to
            </ButtonLink>
            {hasArchived && (
              <ButtonLink href="/automations?status=archived" variant="secondary">
                See archived automations
              </ButtonLink>
            )}
          </>
        }
      >
        <p>
          An automation starts with a <strong className="font-medium text-zinc-800">trigger</strong>, checks{" "}
          <strong className="font-medium text-zinc-800">conditions</strong>, then runs{" "}
          <strong className="font-medium text-zinc-800">actions</strong>. A{" "}
          <strong className="font-medium text-zinc-800">wait</strong> can pause it for minutes, days or until
          someone approves, and it picks up later against the order or customer as it is then.
        </p>
        <p>
          {canEdit
            ? "Start from a template such as an abandoned cart reminder, or from a blank flow. "
            : "Editors and admins create automations; they will be listed here. "}
          You draw the flow on a canvas; each automation shows here with its status (draft, active or paused)
          and its published version.
        </p>
      </EmptyState>
      <CardBody className="border-t border-zinc-200 bg-zinc-50/60 px-6 py-6">
        <h2 className="mb-3 text-sm font-semibold text-zinc-900">Example: ask big spenders for a review</h2>
        <FlowExplainer />
      </CardBody>
    </Card>
  );
}
