"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Pager } from "@/components/entities/pager";
import { fetchJson, POLL_MS } from "@/components/runs/fetch-json";
import { LiveStatus } from "@/components/runs/live-status";
import type { Role } from "@/lib/identity/roles";
import type { ApprovalView } from "@/lib/automations/waits/approvals";
import { ApprovalRow } from "./approval-row";
import type { DecisionRefusal } from "./decision-box";

export type InboxView = "pending" | "all";

export interface ApprovalsPage {
  items: ApprovalView[];
  nextCursor: string | null;
}

export interface ApprovalsInboxProps {
  initial: ApprovalsPage;
  view: InboxView;
  cursor: string | undefined;
  role: Role;
  /** The wait id of a `?wait=` link. */
  highlight: string | null;
  /** Shown when the list has no approval yet (it differs between the two views). */
  empty: React.ReactNode;
  /** Shown above the list when the linked approval is not on this page. */
  missing: React.ReactNode;
}

/** What this page keeps about approvals decided (or refused) here, so their rows stay in place. */
interface Settled {
  approval: ApprovalView;
  refusal: DecisionRefusal | null;
}

/** Pending approvals soonest to time out first; all of them newest first. */
function inOrder(view: InboxView) {
  return (a: ApprovalView, b: ApprovalView) =>
    view === "pending"
      ? a.timesOutAt.localeCompare(b.timesOutAt) || a.waitId.localeCompare(b.waitId)
      : b.askedAt.localeCompare(a.askedAt) || b.waitId.localeCompare(a.waitId);
}

/**
 * The inbox, live: it polls the approvals API like the runs pages do. An approval decided here
 * leaves the pending list on the next poll, so the page keeps its row, in place, with the decision
 * the server returned and its run's progress — not optimistic: nothing shows before the server
 * has answered.
 */
export function ApprovalsInbox({
  initial,
  view,
  cursor,
  role,
  highlight,
  empty,
  missing,
}: ApprovalsInboxProps) {
  const query = new URLSearchParams({ status: view, limit: "50", ...(cursor ? { cursor } : {}) }).toString();
  const { data, error } = useQuery({
    queryKey: ["approvals", query],
    queryFn: () => fetchJson<ApprovalsPage>(`/api/v1/approvals?${query}`),
    initialData: initial,
    refetchInterval: POLL_MS,
  });
  const [settled, setSettled] = useState<Record<string, Settled>>({});

  const fresh = new Map(data.items.map((item) => [item.waitId, item]));
  const rows = [
    ...data.items.map((item) => {
      const kept = settled[item.waitId];
      // The poll may still say pending for a moment after a decision made here (or lack the vote
      // cast here, when a quorum still waits for others).
      return kept &&
        item.status === "pending" &&
        (kept.approval.status !== "pending" || item.votes.length < kept.approval.votes.length)
        ? kept.approval
        : item;
    }),
    ...Object.values(settled)
      .filter((kept) => !fresh.has(kept.approval.waitId))
      .map((kept) => kept.approval),
  ].sort(inOrder(view));

  if (rows.length === 0 && !cursor)
    return (
      <>
        {missing}
        {empty}
      </>
    );

  return (
    <>
      {!rows.some((row) => row.waitId === highlight) && missing}
      <ul
        aria-label={view === "pending" ? "Approvals waiting for a decision" : "All approvals"}
        className="divide-y divide-zinc-200"
      >
        {rows.map((approval) => (
          <ApprovalRow
            key={approval.waitId}
            approval={approval}
            role={role}
            highlighted={approval.waitId === highlight}
            refusal={settled[approval.waitId]?.refusal ?? null}
            onDecided={(decided) =>
              setSettled((all) => ({ ...all, [decided.waitId]: { approval: decided, refusal: null } }))
            }
            onRefused={(waitId, refusal) =>
              setSettled((all) => ({ ...all, [waitId]: { approval, refusal } }))
            }
          />
        ))}
      </ul>
      <LiveStatus error={error} />
      <Pager
        path="/approvals"
        params={{ status: view === "all" ? "all" : undefined }}
        nextCursor={data.nextCursor}
        paged={Boolean(cursor)}
        shown={rows.length}
        noun={{ one: "approval", many: "approvals" }}
      />
    </>
  );
}
