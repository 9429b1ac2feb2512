import { StaleLinkNotice } from "@/components/entities/stale-link-notice";
import { approvalAsks } from "@/lib/automations/waits/approval-reads";
import { listWaiting } from "@/lib/automations/waits/waits";
import { AppError } from "@/lib/errors";
import { AutoRefresh } from "./auto-refresh";
import { WaitingList } from "./waiting-list";

/** Loads one page of the Waiting list (one automation's or the shop's) and renders it. */
export async function WaitingPageBody({
  tenantId,
  automationId,
  cursor,
  path,
  canEdit,
  isAdmin = false,
}: {
  tenantId: string;
  automationId: string | null;
  cursor: string | undefined;
  path: string;
  canEdit: boolean;
  /** Admins alone may time out an approval only admins decide. Default false. */
  isAdmin?: boolean;
}) {
  let page;
  try {
    page = await listWaiting(tenantId, automationId, { cursor, limit: 50 });
  } catch (error) {
    if (error instanceof AppError && error.status < 500 && error.status !== 404)
      return <StaleLinkNotice error={error.message} firstPage={path} />;
    throw error;
  }
  const asks = await approvalAsks(
    tenantId,
    page.items.filter((wait) => wait.kind === "approval").map((wait) => wait.id),
  );
  return (
    <>
      <AutoRefresh />
      <WaitingList
        items={page.items}
        dropped={page.dropped}
        nextCursor={page.nextCursor}
        path={path}
        paged={Boolean(cursor)}
        canEdit={canEdit}
        isAdmin={isAdmin}
        approvals={Object.fromEntries(asks)}
        showAutomation={automationId === null}
      />
    </>
  );
}
