import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { MarketingBadge } from "@/components/customers/marketing-badge";
import { decodeParam, readBoolean, readNumber, readObject, readString } from "@/components/entities/fields";
import { ActivityCard } from "@/components/entities/activity-card";
import { NotesCard } from "@/components/entities/notes-card";
import { StoreAttributesCard } from "@/components/entities/store-attributes-card";
import { TagList } from "@/components/entities/tag-list";
import { OrderStatusBadge } from "@/components/orders/order-status";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { DescriptionList } from "@/components/ui/description-list";
import { formatCount, formatDecimal, formatMoney } from "@/components/ui/format";
import { PageHeader } from "@/components/ui/page-header";
import { RelativeTime } from "@/components/ui/relative-time";
import { TBody, TD, TH, THead, TR, Table } from "@/components/ui/table";
import { requireCaller } from "@/lib/auth/session";
import { getEntity, type EntityView } from "@/lib/entities/service";
import { listEntities, type EntityListItem } from "@/lib/entities/list";
import { ACTIVITY_RUN_LIMIT, entityActivity } from "@/lib/entities/activity";
import { AppError } from "@/lib/errors";
import { getDb } from "@/lib/db/client";
import { customerConsentView } from "@/lib/consent/store";
import { hasRole } from "@/lib/identity/roles";
import { ConsentCard } from "@/components/customers/consent-card";

type Params = Promise<{ id: string }>;

async function findCustomer(tenantId: string, id: string): Promise<EntityView | null> {
  try {
    return await getEntity(tenantId, "customer", id);
  } catch (error) {
    if (error instanceof AppError && (error.status === 404 || error.status === 422)) return null;
    throw error;
  }
}

/**
 * The customer's recent orders. The entity list has no customer filter, so this searches by the
 * customer's email and keeps the orders that name this customer (or, for guest orders, the email).
 */
async function recentOrders(
  tenantId: string,
  customerId: string,
  email: string | null,
): Promise<EntityListItem[]> {
  if (!email) return [];
  const { items } = await listEntities(tenantId, "order", { q: email, limit: 50 });
  return items
    .filter((o) => o.data.customerId === customerId || (!o.data.customerId && o.data.email === email))
    .slice(0, 10);
}

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  return { title: `Customer ${decodeParam((await params).id)}` };
}

export default async function CustomerPage({ params }: { params: Params }) {
  const caller = await requireCaller();
  const id = decodeParam((await params).id);
  const customer = await findCustomer(caller.tenant.id, id);
  if (!customer) notFound();

  const name = readString(customer, "name");
  const email = readString(customer, "email");
  const ordersCount = readNumber(customer, "ordersCount");
  const totalSpent = readNumber(customer, "totalSpent");
  const phone = readString(customer, "phone");
  const city = readString(customer, "city");
  const country = readString(customer, "country");
  const [orders, activity, consent] = await Promise.all([
    recentOrders(caller.tenant.id, customer.id, email),
    entityActivity(caller.tenant.id, "customer", customer.id),
    customerConsentView(getDb(), caller.tenant.id, customer.id),
  ]);

  return (
    <>
      <PageHeader
        back={{ href: "/customers", label: "Customers" }}
        title={name ?? email ?? customer.id}
        meta={<MarketingBadge accepts={readBoolean(customer, "acceptsMarketing")} />}
        description={email}
      />
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="min-w-0 space-y-6 lg:col-span-2">
          <Card>
            <CardHeader
              title="Recent orders"
              actions={
                email ? (
                  <Link
                    href={`/orders?q=${encodeURIComponent(email)}`}
                    className="rounded text-sm font-medium text-indigo-700 hover:underline"
                  >
                    Search all orders
                  </Link>
                ) : undefined
              }
            />
            {orders.length === 0 ? (
              <p className="px-5 py-4 text-sm text-zinc-500">No orders found for this customer.</p>
            ) : (
              <Table caption="Recent orders">
                <THead>
                  <TR>
                    <TH>Order</TH>
                    <TH>Status</TH>
                    <TH align="right">Total</TH>
                    <TH>Updated</TH>
                  </TR>
                </THead>
                <TBody>
                  {orders.map((order) => {
                    const total = readNumber(order.data, "total");
                    return (
                      <TR key={order.id}>
                        <TD>
                          <Link
                            href={`/orders/${encodeURIComponent(order.id)}`}
                            className="font-medium text-zinc-900 hover:underline"
                          >
                            {readString(order.data, "number") ?? order.id}
                          </Link>
                        </TD>
                        <TD>
                          <OrderStatusBadge status={order.status} />
                        </TD>
                        <TD align="right">
                          {total === null ? "—" : formatMoney(total, readString(order.data, "currency"))}
                        </TD>
                        <TD className="text-zinc-500">
                          <RelativeTime value={order.updatedAt} />
                        </TD>
                      </TR>
                    );
                  })}
                </TBody>
              </Table>
            )}
          </Card>
          <StoreAttributesCard
            attributes={readObject(customer, "attributes")}
            timeZone={caller.tenant.timezone}
          />
          <NotesCard notes={customer.notes} />
          <ActivityCard items={activity} limit={ACTIVITY_RUN_LIMIT} />
        </div>
        <div className="min-w-0 space-y-6">
          <Card>
            <CardHeader title="Overview" />
            <CardBody>
              <DescriptionList
                columns={1}
                items={[
                  { term: "Orders", detail: ordersCount === null ? "—" : formatCount(ordersCount) },
                  { term: "Total spent", detail: totalSpent === null ? "—" : formatDecimal(totalSpent) },
                  { term: "Email", detail: email ?? "—" },
                  ...(phone ? [{ term: "Phone", detail: phone }] : []),
                  ...(city ? [{ term: "City", detail: city }] : []),
                  ...(country ? [{ term: "Country", detail: country }] : []),
                  {
                    term: "Marketing",
                    detail: <MarketingBadge accepts={readBoolean(customer, "acceptsMarketing")} />,
                  },
                ]}
              />
            </CardBody>
          </Card>
          {consent && <ConsentCard consent={consent} canChange={hasRole(caller.role, "editor")} />}
          <Card>
            <CardHeader title="Tags" />
            <CardBody>
              <TagList tags={customer.tags} emptyText="No tags." />
            </CardBody>
          </Card>
          <Card>
            <CardHeader title="Details" />
            <CardBody>
              <DescriptionList
                items={[
                  { term: "Customer id", detail: <span className="font-mono text-xs">{customer.id}</span> },
                  { term: "Recorded", detail: <RelativeTime value={customer.recordedAt} /> },
                  { term: "Last changed", detail: <RelativeTime value={customer.changedAt} /> },
                ]}
              />
            </CardBody>
          </Card>
        </div>
      </div>
    </>
  );
}
