import { Badge } from "@/components/ui/badge";
import { TimesOutIn } from "@/components/approvals/times-out-in";
import { RelativeTime } from "@/components/ui/relative-time";
import { TBody, TD, TH, THead, TR, Table } from "@/components/ui/table";
import type { RunWait } from "@/lib/automations/runs/detail";
import { eventLabel } from "@/lib/automations/nodes/timing/event-types";
import { ResumesIn } from "./resumes-in";
import { WAIT_KIND_LABELS, WaitStatusBadge } from "./run-status";
import { WaitActions } from "./wait-actions";
import { ClockTime, WaitFateLine } from "./waiting-line";

/**
 * The waits of one run: step and kind (and for an approval what it asks), status and why it ended,
 * due time, and for editors Resume now / Cancel — "Decide as timed out now" on an approval, offered
 * to editors only where editors may decide it.
 */
export function RunWaits({
  waits,
  canEdit,
  isAdmin = false,
}: {
  waits: RunWait[];
  canEdit: boolean;
  /** The signed-in person is an admin (who alone may time out an admins-only approval). Default false. */
  isAdmin?: boolean;
}) {
  if (waits.length === 0) return <p className="px-5 py-4 text-sm text-zinc-600">This run never waited.</p>;
  return (
    <Table caption="Waits of this run">
      <THead>
        <TR>
          <TH>Step</TH>
          <TH>Status</TH>
          <TH>Resume at</TH>
          {canEdit && (
            <TH>
              <span className="sr-only">Actions</span>
            </TH>
          )}
        </TR>
      </THead>
      <TBody>
        {waits.map((wait) => (
          <TR key={wait.id} data-testid="run-wait">
            <TD className="max-w-64">
              <span className="text-zinc-900" title={`Step id: ${wait.nodeId}`}>
                {wait.label}
              </span>
              {/* The kind, where the step's name does not already say it ("Wait 2 days" is a Wait). */}
              {!wait.label.startsWith(WAIT_KIND_LABELS[wait.kind] ?? wait.kind) && (
                <span className="block text-xs text-zinc-500" data-testid="wait-kind">
                  {WAIT_KIND_LABELS[wait.kind] ?? wait.kind}
                </span>
              )}
              {wait.approval && (
                <span className="block text-xs break-words text-zinc-600">“{wait.approval.title}”</span>
              )}
            </TD>
            <TD className="max-w-72">
              {wait.cancelledAtWake ? (
                <>
                  <Badge tone="warning">Cancelled at wake</Badge>
                  <span className="mt-1 block text-xs text-zinc-600" data-testid="cancelled-at-wake">
                    {wait.cancelledAtWake}
                  </span>
                </>
              ) : (
                <>
                  <WaitStatusBadge status={wait.status} />
                  {wait.kind === "event" ? (
                    <EventOutcome wait={wait} />
                  ) : (
                    wait.reason && <span className="mt-1 block text-xs text-zinc-600">{wait.reason}</span>
                  )}
                </>
              )}
              {wait.status === "pending" && wait.fate && !wait.fate.continues && (
                <WaitFateLine reason={wait.fate.reason} className="mt-1 block text-xs text-amber-800" />
              )}
            </TD>
            <TD className="text-zinc-600">
              {wait.status === "pending" &&
              (wait.kind === "approval" || wait.kind === "event") &&
              !wait.received ? (
                <TimesOutIn value={wait.resumeAt} brief />
              ) : wait.status === "pending" ? (
                <ResumesIn value={wait.resumeAt} doomed={wait.fate?.continues === false} />
              ) : (
                <RelativeTime value={wait.resumeAt} />
              )}
            </TD>
            {canEdit && (
              <TD align="right">
                {wait.status === "pending" && (isAdmin || wait.approval?.approverRole !== "admin") && (
                  <WaitActions waitId={wait.id} waitKind={wait.kind} fate={wait.fate} label={wait.label} />
                )}
              </TD>
            )}
          </TR>
        ))}
      </TBody>
    </Table>
  );
}

/**
 * Under a wait for an event's status: what it waits for; "Received Order fulfilled at 14:05" once
 * its event came; "Timed out: went on without …" when it resumed without one (its time ran out,
 * or someone chose Resume now). A cancelled one keeps its reason.
 */
function EventOutcome({ wait }: { wait: RunWait }) {
  const name = wait.waitingFor ? eventLabel(wait.waitingFor) : "the event";
  const line = "mt-1 block text-xs text-zinc-600";
  if (wait.received)
    return (
      <span className={line} data-testid="event-outcome">
        Received {eventLabel(wait.received.type)} at <ClockTime value={wait.received.occurredAt} />
      </span>
    );
  if (wait.status === "pending")
    return (
      <span className={line} data-testid="event-outcome">
        Waiting for {name}
      </span>
    );
  if (wait.status === "resumed")
    return (
      <span className={line} data-testid="event-outcome">
        Timed out: went on without {name}
      </span>
    );
  return wait.reason ? <span className={line}>{wait.reason}</span> : null;
}
