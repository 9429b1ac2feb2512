import type { Metadata } from "next";
import Link from "next/link";
import { MarketingBadge } from "@/components/customers/marketing-badge";
import { firstParam, readBoolean, readNumber, readString } from "@/components/entities/fields";
import { ListToolbar } from "@/components/entities/list-toolbar";
import { StaleLinkNotice } from "@/components/entities/stale-link-notice";
import { Pager } from "@/components/entities/pager";
import { TagList } from "@/components/entities/tag-list";
import { ButtonLink } from "@/components/ui/button-link";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { formatCount, formatDecimal } from "@/components/ui/format";
import { PageHeader } from "@/components/ui/page-header";
import { RelativeTime } from "@/components/ui/relative-time";
import { TBody, TD, TH, THead, TR, Table } from "@/components/ui/table";
import { requireCaller } from "@/lib/auth/session";
import { listEntities, type EntityListItem } from "@/lib/entities/list";
import { AppError } from "@/lib/errors";

export const metadata: Metadata = { title: "Customers" };

const PAGE_SIZE = 20;

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

async function loadPage(tenantId: string, query: { q?: string; cursor?: string }) {
  try {
    return { page: await listEntities(tenantId, "customer", { ...query, limit: PAGE_SIZE }), error: null };
  } catch (error) {
    if (error instanceof AppError && error.status < 500) return { page: null, error: error.message };
    throw error;
  }
}

export default async function CustomersPage({ searchParams }: { searchParams: SearchParams }) {
  const caller = await requireCaller();
  const params = await searchParams;
  const q = firstParam(params.q);
  const cursor = firstParam(params.cursor);
  const { page, error } = await loadPage(caller.tenant.id, { q, cursor });

  return (
    <>
      <PageHeader
        title="Customers"
        description="The people who buy from your shop, most recently changed first."
      />
      <Card>
        <ListToolbar path="/customers" searchHint="name, email or id" q={q} />
        {error || !page ? (
          <StaleLinkNotice error={error} firstPage="/customers" />
        ) : page.items.length === 0 ? (
          <EmptyState
            title={q ? "No customers match this search" : "No customers yet"}
            actions={q ? <ButtonLink href="/customers">Clear search</ButtonLink> : undefined}
          >
            <p>
              {q
                ? "Search looks at the customer's name, email address and id."
                : "Customers appear here as your store sends them to Tillflow (PUT /api/v1/entities/customer/<id>)."}
            </p>
          </EmptyState>
        ) : (
          <>
            <CustomersTable items={page.items} />
            <Pager
              path="/customers"
              params={{ q }}
              nextCursor={page.nextCursor}
              paged={Boolean(cursor)}
              shown={page.items.length}
              noun={{ one: "customer", many: "customers" }}
            />
          </>
        )}
      </Card>
    </>
  );
}

function CustomersTable({ items }: { items: EntityListItem[] }) {
  return (
    <Table caption="Customers">
      <THead>
        <TR>
          <TH>Name</TH>
          <TH>Email</TH>
          <TH align="right">Orders</TH>
          <TH align="right">Total spent</TH>
          <TH>Marketing</TH>
          <TH>Tags</TH>
          <TH>Updated</TH>
        </TR>
      </THead>
      <TBody>
        {items.map((customer) => {
          const ordersCount = readNumber(customer.data, "ordersCount");
          const totalSpent = readNumber(customer.data, "totalSpent");
          return (
            <TR key={customer.id} className="hover:bg-zinc-50">
              <TD>
                <Link
                  href={`/customers/${encodeURIComponent(customer.id)}`}
                  className="font-medium text-zinc-900 underline-offset-2 hover:underline"
                >
                  {readString(customer.data, "name") ?? customer.id}
                </Link>
              </TD>
              <TD className="max-w-56 truncate">{readString(customer.data, "email") ?? "—"}</TD>
              <TD align="right">{ordersCount === null ? "—" : formatCount(ordersCount)}</TD>
              <TD align="right">{totalSpent === null ? "—" : formatDecimal(totalSpent)}</TD>
              <TD>
                <MarketingBadge accepts={readBoolean(customer.data, "acceptsMarketing")} />
              </TD>
              <TD>
                <TagList tags={customer.tags} />
              </TD>
              <TD className="whitespace-nowrap text-zinc-500">
                <RelativeTime value={customer.updatedAt} />
              </TD>
            </TR>
          );
        })}
      </TBody>
    </Table>
  );
}
