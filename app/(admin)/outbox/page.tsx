import type { Metadata } from "next";
import { firstParam } from "@/components/entities/fields";
import { AutoRefresh } from "@/components/runs/auto-refresh";
import { Pager } from "@/components/entities/pager";
import { StaleLinkNotice } from "@/components/entities/stale-link-notice";
import { EmailList, type OutboxEmail } from "@/components/outbox/email-list";
import { HttpList, type HttpDelivery } from "@/components/outbox/http-list";
import { OutboxTabs } from "@/components/outbox/outbox-tabs";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { requireCaller } from "@/lib/auth/session";
import { listOutbox } from "@/lib/automations/work/outbox";
import { AppError } from "@/lib/errors";

export const metadata: Metadata = { title: "Outbox" };

const PAGE_SIZE = 20;

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function OutboxPage({ searchParams }: { searchParams: SearchParams }) {
  const caller = await requireCaller();
  const params = await searchParams;
  const kind = firstParam(params.kind) === "http" ? "http" : "email";
  const cursor = firstParam(params.cursor);
  let page;
  let problem: string | null = null;
  try {
    page = await listOutbox(caller.tenant.id, { kind, cursor, limit: PAGE_SIZE });
  } catch (error) {
    if (error instanceof AppError && error.status < 500) problem = error.message;
    else throw error;
  }
  const noun = kind === "email" ? { one: "email", many: "emails" } : { one: "delivery", many: "deliveries" };
  return (
    <>
      <PageHeader
        title="Outbox"
        description="What flows sent out: emails (kept here, and sent through SMTP when configured) and HTTP requests with the Idempotency-Key each carried."
      />
      <Card>
        <AutoRefresh />
        <OutboxTabs kind={kind} />
        {problem || !page ? (
          <StaleLinkNotice error={problem} firstPage={kind === "http" ? "/outbox?kind=http" : "/outbox"} />
        ) : page.items.length === 0 ? (
          <EmptyState title={kind === "email" ? "No emails yet" : "No HTTP deliveries yet"}>
            <p>
              {kind === "email"
                ? "A Send email step writes each message here, with its rendered preview, the moment its run reaches it."
                : "An HTTP request step records each delivery here before sending, then the receiver's answer. A step re-run after a crash re-sends with the same Idempotency-Key, so the receiver can drop the repeat."}
            </p>
          </EmptyState>
        ) : (
          <>
            {kind === "email" ? (
              <EmailList items={page.items as OutboxEmail[]} />
            ) : (
              <HttpList items={page.items as HttpDelivery[]} />
            )}
            <Pager
              path="/outbox"
              params={{ kind: kind === "http" ? "http" : undefined }}
              nextCursor={page.nextCursor}
              paged={Boolean(cursor)}
              shown={page.items.length}
              noun={noun}
            />
          </>
        )}
      </Card>
    </>
  );
}
