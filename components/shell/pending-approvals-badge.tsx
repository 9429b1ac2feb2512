import { formatCount } from "@/components/ui/format";
import { countPendingApprovals } from "@/lib/automations/waits/approvals";

/**
 * How many approvals wait for a decision, for the sidebar's Approvals link: nothing at zero. The
 * sidebar renders it inside Suspense, so the count (one indexed count over the shop's pending
 * waits) never holds up the page; it is current after every navigation refresh and decision.
 */
export async function PendingApprovalsBadge({ tenantId }: { tenantId: string }) {
  const count = await countPendingApprovals(tenantId);
  if (count === 0) return null;
  return (
    <span
      className="ml-auto rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900 tabular-nums"
      data-testid="pending-approvals-count"
    >
      <span className="sr-only">, </span>
      {count > 99 ? "99+" : formatCount(count)}
      <span className="sr-only"> waiting</span>
    </span>
  );
}
