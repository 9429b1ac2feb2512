import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { EventHistory } from "@/components/entities/event-history";
import {
  decodeParam,
  readAddress,
  readLineItems,
  readNumber,
  readObject,
  readString,
  readStringList,
  type Address,
} from "@/components/entities/fields";
import { ActivityCard } from "@/components/entities/activity-card";
import { NotesCard } from "@/components/entities/notes-card";
import { StoreAttributesCard } from "@/components/entities/store-attributes-card";
import { TagList } from "@/components/entities/tag-list";
import { ChangeEmailForm } from "@/components/orders/change-email-form";
import { ChangeStatusForm } from "@/components/orders/change-status-form";
import { LineItems } from "@/components/orders/line-items";
import { ORDER_STATUS_LABELS, OrderStatusBadge, isOrderStatus } from "@/components/orders/order-status";
import { Badge } from "@/components/ui/badge";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { DescriptionList } from "@/components/ui/description-list";
import { formatMoney } from "@/components/ui/format";
import { PageHeader } from "@/components/ui/page-header";
import { RelativeTime } from "@/components/ui/relative-time";
import { hasRole } from "@/lib/identity/roles";
import { requireCaller } from "@/lib/auth/session";
import { getEntity, type EntityView } from "@/lib/entities/service";
import { ACTIVITY_RUN_LIMIT, entityActivity } from "@/lib/entities/activity";
import { AppError } from "@/lib/errors";
import {
  FINANCIAL_STATUS_LABELS,
  FULFILLMENT_STATUS_LABELS,
  salesChannelLabel,
  statusWords,
} from "@/lib/domains/labels";
import { listEntityEvents } from "@/lib/events/list";

const EVENT_LIMIT = 50;

type Params = Promise<{ id: string }>;

/** The order, or null when this shop has none with that id (including ids that could never exist). */
async function findOrder(tenantId: string, id: string): Promise<EntityView | null> {
  try {
    return await getEntity(tenantId, "order", id);
  } catch (error) {
    if (error instanceof AppError && (error.status === 404 || error.status === 422)) return null;
    throw error;
  }
}

function statusLabel(status: string): string {
  return isOrderStatus(status) ? ORDER_STATUS_LABELS[status] : status;
}

/** "Berlin, Berlin 10115" and "Germany (DE)": the address's lines, leaving out the parts it lacks. */
function addressLines(address: Address): string[] {
  const place = [address.city, [address.province, address.zip].filter(Boolean).join(" ")]
    .filter(Boolean)
    .join(", ");
  const country =
    address.country && address.countryCode
      ? `${address.country} (${address.countryCode})`
      : (address.country ?? address.countryCode);
  return [address.name, place, country].filter((line): line is string => Boolean(line));
}

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { id } = await params;
  return { title: `Order ${decodeParam(id)}` };
}

export default async function OrderPage({ params }: { params: Params }) {
  const caller = await requireCaller();
  const id = decodeParam((await params).id);
  const order = await findOrder(caller.tenant.id, id);
  if (!order) notFound();
  const [events, activity] = await Promise.all([
    listEntityEvents(caller.tenant.id, "order", order.id, EVENT_LIMIT),
    entityActivity(caller.tenant.id, "order", order.id),
  ]);

  const number = readString(order, "number") ?? order.id;
  const status = readString(order, "status");
  const currency = readString(order, "currency");
  const total = readNumber(order, "total");
  const email = readString(order, "email");
  const customerId = readString(order, "customerId");
  const lineItems = readLineItems(order);
  const canEdit = hasRole(caller.role, "editor");
  const address = readAddress(order);
  const financialStatus = readString(order, "financialStatus");
  const fulfillmentStatus = readString(order, "fulfillmentStatus");
  const discountCodes = readStringList(order, "discountCodes");
  const sourceName = readString(order, "sourceName");

  return (
    <>
      <PageHeader
        back={{ href: "/orders", label: "Orders" }}
        title={`Order ${number}`}
        meta={<OrderStatusBadge status={status} />}
        description={
          <>
            {total !== null && (
              <span className="font-medium text-zinc-800">{formatMoney(total, currency)}</span>
            )}
            {total !== null && " · "}
            {lineItems.length === 1 ? "1 line item" : `${lineItems.length} line items`}
            {email && ` · ${email}`}
          </>
        }
      />
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="min-w-0 space-y-6 lg:col-span-2">
          <Card>
            <CardHeader title="Line items" />
            <LineItems items={lineItems} total={total} currency={currency} />
          </Card>
          <StoreAttributesCard
            attributes={readObject(order, "attributes")}
            timeZone={caller.tenant.timezone}
          />
          <NotesCard notes={order.notes} />
          <ActivityCard items={activity} limit={ACTIVITY_RUN_LIMIT} />
          <EventHistory
            events={events.map((e) => ({ ...e, createdAt: e.createdAt.toISOString() }))}
            statusLabel={statusLabel}
            limit={EVENT_LIMIT}
          />
        </div>
        <div className="min-w-0 space-y-6">
          <Card>
            <CardHeader title="Status" />
            <CardBody className="space-y-4">
              <p className="flex items-center gap-2 text-sm text-zinc-700" data-testid="order-status">
                Current status: <OrderStatusBadge status={status} />
              </p>
              {(financialStatus || fulfillmentStatus) && (
                <DescriptionList
                  items={[
                    ...(financialStatus
                      ? [{ term: "Payment", detail: statusWords(FINANCIAL_STATUS_LABELS, financialStatus) }]
                      : []),
                    ...(fulfillmentStatus
                      ? [
                          {
                            term: "Fulfillment",
                            detail: statusWords(FULFILLMENT_STATUS_LABELS, fulfillmentStatus),
                          },
                        ]
                      : []),
                  ]}
                />
              )}
              {canEdit && <ChangeStatusForm orderId={order.id} current={status} />}
            </CardBody>
          </Card>
          <Card>
            <CardHeader title="Customer" />
            <CardBody className="space-y-4">
              {canEdit && <ChangeEmailForm orderId={order.id} current={email} />}
              <DescriptionList
                columns={1}
                items={[
                  ...(canEdit ? [] : [{ term: "Email", detail: email ?? "—" }]),
                  {
                    term: "Customer",
                    detail: customerId ? (
                      <Link
                        href={`/customers/${encodeURIComponent(customerId)}`}
                        className="font-medium text-indigo-700 hover:underline"
                      >
                        {customerId}
                      </Link>
                    ) : (
                      "Guest checkout"
                    ),
                  },
                ]}
              />
            </CardBody>
          </Card>
          {address && (
            <Card>
              <CardHeader title="Shipping address" />
              <CardBody>
                <address
                  className="text-sm leading-6 text-zinc-900 not-italic"
                  data-testid="shipping-address"
                >
                  {addressLines(address).map((line) => (
                    <span key={line} className="block">
                      {line}
                    </span>
                  ))}
                </address>
              </CardBody>
            </Card>
          )}
          <Card>
            <CardHeader title="Tags" />
            <CardBody>
              <TagList tags={order.tags} emptyText="No tags." />
            </CardBody>
          </Card>
          <Card>
            <CardHeader title="Details" />
            <CardBody>
              <DescriptionList
                items={[
                  { term: "Order id", detail: <span className="font-mono text-xs">{order.id}</span> },
                  { term: "Currency", detail: currency ?? "—" },
                  ...(sourceName ? [{ term: "Sales channel", detail: salesChannelLabel(sourceName) }] : []),
                  ...(discountCodes.length > 0
                    ? [
                        {
                          term: "Discount codes",
                          detail: (
                            <ul className="flex flex-wrap gap-1" aria-label="Discount codes">
                              {discountCodes.map((code) => (
                                <li key={code}>
                                  <Badge>{code}</Badge>
                                </li>
                              ))}
                            </ul>
                          ),
                        },
                      ]
                    : []),
                  { term: "Recorded", detail: <RelativeTime value={order.recordedAt} /> },
                  { term: "Last changed", detail: <RelativeTime value={order.changedAt} /> },
                ]}
              />
            </CardBody>
          </Card>
        </div>
      </div>
    </>
  );
}
