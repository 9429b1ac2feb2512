import type { Metadata } from "next";
import Link from "next/link";
import { firstParam } from "@/components/entities/fields";
import { Pager } from "@/components/entities/pager";
import { StaleLinkNotice } from "@/components/entities/stale-link-notice";
import { Badge } from "@/components/ui/badge";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { ExactTime } from "@/components/ui/exact-time";
import { TBody, TD, TH, THead, TR, Table } from "@/components/ui/table";
import { listAlertHistory, type AlertHistoryItem } from "@/lib/alerts/history";
import { CHANNEL_LABELS, KIND_LABELS, type ChannelType } from "@/lib/alerts/kinds";
import { requireCaller } from "@/lib/auth/session";
import { AppError } from "@/lib/errors";

export const metadata: Metadata = { title: "Alert history" };

const PAGE_SIZE = 30;

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** The runs link inside the app (the stored one is absolute, for emails and webhooks). */
function inApp(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return "/runs";
  }
}

function Status({ item }: { item: AlertHistoryItem }) {
  if (item.status === "sent") return <Badge tone="success">Sent</Badge>;
  if (item.status === "pending") return <Badge tone="info">Sending</Badge>;
  return (
    <span className="flex flex-col gap-1">
      <Badge tone="danger">Not sent</Badge>
      {item.error && <span className="text-xs text-red-700">{item.error}</span>}
    </span>
  );
}

export default async function AlertHistoryPage({ searchParams }: { searchParams: SearchParams }) {
  const caller = await requireCaller();
  const cursor = firstParam((await searchParams).cursor);
  let page;
  let problem: string | null = null;
  try {
    page = await listAlertHistory(caller.tenant.id, { cursor, limit: PAGE_SIZE });
  } catch (error) {
    if (error instanceof AppError && error.status < 500) problem = error.message;
    else throw error;
  }
  return (
    <Card>
      <CardHeader
        title="Alert history"
        description="Every alert made, newest first: what it said, where it went, and whether it arrived."
        actions={
          <Link href="/settings/alerts" className="text-sm font-medium text-indigo-700 hover:underline">
            Back to alerts
          </Link>
        }
      />
      {problem || !page ? (
        <StaleLinkNotice error={problem} firstPage="/settings/alerts/history" />
      ) : page.items.length === 0 ? (
        <EmptyState title="No alerts sent yet">
          <p>
            When an alert finds something — failed runs, a quiet automation, a storm, overdue waits — it is
            listed here with what it said and whether it was delivered.
          </p>
          <p>
            To see one now, add an alert in{" "}
            <Link href="/settings/alerts" className="underline">
              Settings → Alerts
            </Link>{" "}
            and press “Send a test alert”.
          </p>
        </EmptyState>
      ) : (
        <>
          <Table caption="Alerts sent">
            <THead>
              <TR>
                <TH>When</TH>
                <TH>Alert</TH>
                <TH>What happened</TH>
                <TH>Sent to</TH>
                <TH>Delivery</TH>
              </TR>
            </THead>
            <TBody>
              {page.items.map((item) => (
                <TR key={item.id} data-testid="alert-history-row">
                  <TD className="whitespace-nowrap">
                    <ExactTime value={item.createdAt} />
                  </TD>
                  <TD>
                    <span className="block font-medium text-zinc-900">{KIND_LABELS[item.kind].label}</span>
                    <span className="text-xs text-zinc-600">{item.automationName}</span>
                  </TD>
                  <TD>
                    <span className="block">{item.message}</span>
                    <Link href={inApp(item.runsUrl)} className="text-xs text-indigo-700 hover:underline">
                      See the runs<span className="sr-only"> of {item.automationName}</span>
                    </Link>
                  </TD>
                  <TD className="whitespace-nowrap">
                    {CHANNEL_LABELS[item.channel as ChannelType] ?? item.channel}
                  </TD>
                  <TD>
                    <Status item={item} />
                  </TD>
                </TR>
              ))}
            </TBody>
          </Table>
          <Pager
            path="/settings/alerts/history"
            params={{}}
            nextCursor={page.nextCursor}
            paged={Boolean(cursor)}
            shown={page.items.length}
            noun={{ one: "alert", many: "alerts" }}
          />
        </>
      )}
    </Card>
  );
}
