import Link from "next/link";
import { TimesOutIn } from "@/components/approvals/times-out-in";
import { ButtonLink } from "@/components/ui/button-link";
import { CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { RelativeTime } from "@/components/ui/relative-time";
import { TBody, TD, TH, THead, TR, Table } from "@/components/ui/table";
import type { ApprovalAsk } from "@/lib/automations/waits/approval-reads";
import { waitingSentence } from "@/lib/automations/nodes/timing/wait-for-event.run";
import type { WaitingItem } from "@/lib/automations/waits/view";
import { shortRunId } from "@/lib/automations/runs/short-id";
import { EntityLink } from "./entity-link";
import { ResumesIn } from "./resumes-in";
import { WAIT_KIND_LABELS } from "./run-status";
import { WaitActions } from "./wait-actions";
import { WaitFateLine } from "./waiting-line";
import { RunLink } from "./run-link";

export interface WaitingListProps {
  items: WaitingItem[];
  dropped: WaitingItem[];
  nextCursor: string | null;
  /** The page's path, for "Next page" and "First page". */
  path: string;
  paged: boolean;
  canEdit: boolean;
  /** Admins alone may time out an approval only admins decide. Default false. */
  isAdmin?: boolean;
  /** What each approval wait asks, by wait id. */
  approvals?: Record<string, ApprovalAsk>;
  /** Show which automation each wait belongs to (the shop-wide list). */
  showAutomation: boolean;
}

/**
 * On a phone the lists' rows become stacks of their cells, so a row's actions sit on screen rather
 * than at the end of a table wider than the phone. (Each cell says what it is: a time, a step, a
 * run, a record.)
 */
const STACK_ON_PHONE =
  "max-sm:[&_table]:block max-sm:[&_tbody]:block max-sm:[&_thead]:hidden max-sm:[&_tr]:block " +
  "max-sm:[&_tr]:py-2 max-sm:[&_td]:block max-sm:[&_td]:px-5 max-sm:[&_td]:py-1 max-sm:[&_td]:text-left " +
  "max-sm:[&_td]:max-w-none";

/** Pending waits soonest first, with their run and entity; then the waits dropped, with why. */
export function WaitingList({
  items,
  dropped,
  nextCursor,
  path,
  paged,
  canEdit,
  isAdmin = false,
  approvals = {},
  showAutomation,
}: WaitingListProps) {
  return (
    <>
      {items.length === 0 && !paged ? (
        <EmptyState title="Nothing is waiting">
          <p>
            When a run reaches a Wait step, a wait for an event, an approval or a later step, it parks here
            until its time (or its event) comes. You can resume one early or cancel it; nothing is lost while
            it waits.
          </p>
        </EmptyState>
      ) : (
        <>
          <Table caption="Pending waits, soonest first" className={STACK_ON_PHONE}>
            <THead>
              <TR>
                <TH>Due</TH>
                {showAutomation && <TH>Automation</TH>}
                <TH>Step</TH>
                <TH>Run</TH>
                <TH>Entity</TH>
                {canEdit && (
                  <TH>
                    <span className="sr-only">Actions</span>
                  </TH>
                )}
              </TR>
            </THead>
            <TBody>
              {items.map((wait) => (
                <TR key={wait.id} data-testid="waiting-row">
                  <TD className="text-zinc-700">
                    {(wait.kind === "approval" || wait.kind === "event") && !wait.received ? (
                      <TimesOutIn value={wait.resumeAt} brief />
                    ) : (
                      <ResumesIn value={wait.resumeAt} doomed={wait.fate?.continues === false} stacked />
                    )}
                    {wait.fate && !wait.fate.continues && (
                      <WaitFateLine
                        reason={wait.fate.reason}
                        className="mt-1 block max-w-64 text-xs whitespace-normal text-amber-800"
                      />
                    )}
                  </TD>
                  {showAutomation && (
                    <TD className="max-w-56 break-words">
                      <Link
                        href={`/automations/${wait.automationId}/waiting`}
                        className="underline-offset-2 hover:underline"
                      >
                        {wait.automationName ?? "Deleted automation"}
                      </Link>
                    </TD>
                  )}
                  <TD className="max-w-64">
                    <span className="text-zinc-900" title={`Step id: ${wait.nodeId}`}>
                      {wait.label}
                    </span>
                    <span className="block text-xs text-zinc-500" data-testid="wait-kind">
                      {WAIT_KIND_LABELS[wait.kind] ?? wait.kind}
                    </span>
                    {waitingSentence(wait) && (
                      <span className="block text-xs break-words text-zinc-700" data-testid="waiting-for">
                        {waitingSentence(wait)}
                      </span>
                    )}
                    {wait.step && <span className="block text-xs text-zinc-500">step “{wait.step}”</span>}
                    {approvals[wait.id] && (
                      <span className="block text-xs break-words text-zinc-600">
                        “{approvals[wait.id]!.title}”
                      </span>
                    )}
                  </TD>
                  <TD>
                    <RunLink runId={wait.runId} className="text-xs" />
                  </TD>
                  <TD className="max-w-48">
                    <EntityLink
                      domain={wait.entity.domain}
                      id={wait.entity.id}
                      label={wait.entityLabel ?? undefined}
                    />
                  </TD>
                  {canEdit && (
                    <TD align="right">
                      {(isAdmin || approvals[wait.id]?.approverRole !== "admin") && (
                        <WaitActions
                          waitId={wait.id}
                          waitKind={wait.kind}
                          fate={wait.fate}
                          label={`${wait.label} of run ${shortRunId(wait.runId)}`}
                        />
                      )}
                    </TD>
                  )}
                </TR>
              ))}
            </TBody>
          </Table>
          <nav
            aria-label="Pagination"
            className="flex flex-wrap items-center justify-between gap-3 border-t border-zinc-200 px-5 py-3"
          >
            <p className="text-sm text-zinc-500">
              Showing {items.length} pending {items.length === 1 ? "wait" : "waits"}, soonest first
              {paged ? ", continued" : ""}
            </p>
            <div className="flex gap-2">
              {paged && (
                <ButtonLink href={path} size="sm">
                  First page
                </ButtonLink>
              )}
              {nextCursor && (
                <ButtonLink href={`${path}?cursor=${encodeURIComponent(nextCursor)}`} size="sm" rel="next">
                  Next page <span aria-hidden="true">→</span>
                </ButtonLink>
              )}
            </div>
          </nav>
        </>
      )}
      {dropped.length > 0 && (
        <div className="border-t border-zinc-200">
          <CardHeader
            level={3}
            title="Dropped recently"
            description="Waits that did not resume: cancelled by someone, or dropped because the automation was off or edited when they came due."
          />
          <Table caption="Waits dropped recently" className={STACK_ON_PHONE}>
            <THead>
              <TR>
                <TH>Dropped</TH>
                {showAutomation && <TH>Automation</TH>}
                <TH>Step</TH>
                <TH>Run</TH>
                <TH>Reason</TH>
              </TR>
            </THead>
            <TBody>
              {dropped.map((wait) => (
                <TR key={wait.id} data-testid="dropped-row">
                  <TD className="whitespace-nowrap text-zinc-500">
                    {wait.resolvedAt ? <RelativeTime value={wait.resolvedAt} /> : "—"}
                  </TD>
                  {showAutomation && (
                    <TD className="max-w-56 break-words">{wait.automationName ?? "Deleted automation"}</TD>
                  )}
                  <TD>
                    {WAIT_KIND_LABELS[wait.kind] ?? wait.kind}{" "}
                    <span className="font-mono text-xs text-zinc-500">{wait.nodeId}</span>
                  </TD>
                  <TD>
                    <RunLink runId={wait.runId} className="text-xs" />
                  </TD>
                  <TD className="max-w-96 text-zinc-700">{wait.reason ?? "—"}</TD>
                </TR>
              ))}
            </TBody>
          </Table>
        </div>
      )}
    </>
  );
}
