import type { Metadata } from "next";
import Link from "next/link";
import { firstParam, readNumber, readString, shipsTo } from "@/components/entities/fields";
import { ListToolbar } from "@/components/entities/list-toolbar";
import { StaleLinkNotice } from "@/components/entities/stale-link-notice";
import { Pager } from "@/components/entities/pager";
import { TagList } from "@/components/entities/tag-list";
import { ORDER_STATUS_OPTIONS, OrderStatusBadge, isOrderStatus } from "@/components/orders/order-status";
import { ButtonLink } from "@/components/ui/button-link";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { formatMoney } from "@/components/ui/format";
import { PageHeader } from "@/components/ui/page-header";
import { RelativeTime } from "@/components/ui/relative-time";
import { TBody, TD, TH, THead, TR, Table } from "@/components/ui/table";
import { requireCaller } from "@/lib/auth/session";
import { listEntities, type EntityListItem } from "@/lib/entities/list";
import { AppError } from "@/lib/errors";

export const metadata: Metadata = { title: "Orders" };

const PAGE_SIZE = 20;

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

async function loadPage(tenantId: string, query: { status?: string; q?: string; cursor?: string }) {
  try {
    return { page: await listEntities(tenantId, "order", { ...query, limit: PAGE_SIZE }), error: null };
  } catch (error) {
    // A stale or hand-edited cursor is the only user error here; anything else is a real failure.
    if (error instanceof AppError && error.status < 500) return { page: null, error: error.message };
    throw error;
  }
}

export default async function OrdersPage({ searchParams }: { searchParams: SearchParams }) {
  const caller = await requireCaller();
  const params = await searchParams;
  const q = firstParam(params.q);
  const rawStatus = firstParam(params.status);
  const status = isOrderStatus(rawStatus) ? rawStatus : undefined;
  const cursor = firstParam(params.cursor);
  const { page, error } = await loadPage(caller.tenant.id, { status, q, cursor });
  const filtered = Boolean(q || status);

  return (
    <>
      <PageHeader title="Orders" description="Every order of your shop, most recently changed first." />
      <Card>
        <ListToolbar
          path="/orders"
          searchHint="number, email or id"
          q={q}
          status={{ value: status, options: ORDER_STATUS_OPTIONS }}
        />
        {error || !page ? (
          <StaleLinkNotice error={error} firstPage="/orders" />
        ) : page.items.length === 0 ? (
          <EmptyState
            title={filtered ? "No orders match these filters" : "No orders yet"}
            actions={filtered ? <ButtonLink href="/orders">Clear filters</ButtonLink> : undefined}
          >
            <p>
              {filtered
                ? "Try another search or status. Search looks at the order number, email address and id."
                : "Orders appear here as your store sends them to Tillflow (PUT /api/v1/entities/order/<id>). Each change is recorded as an event that automations can react to."}
            </p>
          </EmptyState>
        ) : (
          <>
            <OrdersTable items={page.items} />
            <Pager
              path="/orders"
              params={{ q, status }}
              nextCursor={page.nextCursor}
              paged={Boolean(cursor)}
              shown={page.items.length}
              noun={{ one: "order", many: "orders" }}
            />
          </>
        )}
      </Card>
    </>
  );
}

function OrdersTable({ items }: { items: EntityListItem[] }) {
  return (
    <Table caption="Orders">
      <THead>
        <TR>
          <TH>Order</TH>
          <TH>Status</TH>
          <TH align="right">Total</TH>
          <TH>Email</TH>
          <TH>Ships to</TH>
          <TH>Tags</TH>
          <TH>Updated</TH>
        </TR>
      </THead>
      <TBody>
        {items.map((order) => {
          const total = readNumber(order.data, "total");
          const currency = readString(order.data, "currency");
          return (
            <TR key={order.id} className="hover:bg-zinc-50">
              <TD>
                <Link
                  href={`/orders/${encodeURIComponent(order.id)}`}
                  className="font-medium text-zinc-900 underline-offset-2 hover:underline"
                >
                  {readString(order.data, "number") ?? order.id}
                </Link>
              </TD>
              <TD>
                <OrderStatusBadge status={order.status} />
              </TD>
              <TD align="right">{total === null ? "—" : formatMoney(total, currency)}</TD>
              <TD className="max-w-56 truncate">{readString(order.data, "email") ?? "—"}</TD>
              <TD className="max-w-40 truncate">{shipsTo(order.data) ?? "—"}</TD>
              <TD>
                <TagList tags={order.tags} />
              </TD>
              <TD className="whitespace-nowrap text-zinc-500">
                <RelativeTime value={order.updatedAt} />
              </TD>
            </TR>
          );
        })}
      </TBody>
    </Table>
  );
}
