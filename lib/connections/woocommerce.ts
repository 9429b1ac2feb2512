import type { orderStatuses } from "@/lib/domains/domains";
import {
  amount,
  asArray,
  asObject,
  compact,
  customerNames,
  email,
  idText,
  instant,
  readTopic,
  refused,
  rest,
  type ResourceCheck,
  short,
  text,
  type Mapped,
  type Payload,
  type RelatedCustomer,
} from "./mapped";

/**
 * WooCommerce's webhook payloads (WC REST API v3 shapes) read into Tillflow's records. Its
 * `_gmt` dates carry no zone and are UTC; `meta_data`, billing and the rest stay under
 * `attributes`. Pure: the tests feed it the fixtures in tests/fixtures/woocommerce/.
 */

type OrderStatus = (typeof orderStatuses)[number];

/** WooCommerce's order statuses in ours: processing is paid, completed is fulfilled. */
const ORDER_STATUS: Record<string, OrderStatus> = {
  pending: "pending",
  "on-hold": "pending",
  failed: "pending",
  "checkout-draft": "pending",
  processing: "paid",
  completed: "fulfilled",
  cancelled: "cancelled",
  refunded: "refunded",
};

const gmt = (value: unknown) => instant(value, { utcIfBare: true });

function fullName(party: Payload): string | undefined {
  return [text(party.first_name), text(party.last_name)].filter(Boolean).join(" ") || undefined;
}

function order(p: Payload): Mapped {
  const id = idText(p.id);
  if (!id) return refused("The order has no id.");
  const wcStatus = text(p.status) ?? "pending";
  const status = ORDER_STATUS[wcStatus] ?? "pending";
  const billing = asObject(p.billing) ?? {};
  const shipping = asObject(p.shipping) ?? {};
  const coupons = asArray(p.coupon_lines)
    .map((c) => short(asObject(c)?.code, 100))
    .filter((c): c is string => c !== undefined);
  const country = short(shipping.country, 10);
  const shippingAddress = compact({
    name: fullName(shipping)?.slice(0, 200),
    city: short(shipping.city, 200),
    province: short(shipping.state, 200),
    // WooCommerce sends the country's ISO code only.
    country,
    countryCode: country,
    zip: short(shipping.postcode, 50),
  });
  const customerId = amount(p.customer_id) ? idText(p.customer_id) : undefined;
  const { attributes, leftOut } = rest(p, [
    "id",
    "number",
    "currency",
    "total",
    "customer_id",
    "date_created_gmt",
  ]);
  return {
    kind: "record",
    domain: "order",
    id,
    data: compact({
      number: `#${text(p.number) ?? id}`.slice(0, 50),
      status,
      total: Math.max(0, amount(p.total) ?? 0),
      currency: text(p.currency) ?? "USD",
      email: email(billing.email),
      customerId,
      lineItems: asArray(p.line_items)
        .slice(0, 500)
        .map((raw) => {
          const item = asObject(raw) ?? {};
          return compact({
            sku:
              short(item.sku, 100) ??
              (amount(item.variation_id) ? idText(item.variation_id) : undefined) ??
              idText(item.product_id) ??
              idText(item.id) ??
              "item",
            title: (text(item.name) ?? "").slice(0, 200),
            quantity: Math.max(1, Math.trunc(amount(item.quantity) ?? 1)),
            price: Math.max(0, amount(item.price) ?? 0),
            productId: idText(item.product_id),
          });
        }),
      createdAt: gmt(p.date_created_gmt)?.toISOString(),
      shippingAddress: Object.keys(shippingAddress).length > 0 ? shippingAddress : undefined,
      discountCodes: coupons.length > 0 ? coupons.slice(0, 50) : undefined,
      financialStatus:
        status === "refunded"
          ? "refunded"
          : text(p.date_paid_gmt) || status !== "pending"
            ? "paid"
            : "pending",
      fulfillmentStatus: status === "fulfilled" ? "fulfilled" : "unfulfilled",
      sourceName: short(p.created_via, 100),
      attributes,
    }),
    tags: [],
    sourceUpdatedAt: gmt(p.date_modified_gmt),
    leftOut,
    customer: billedCustomer(customerId, billing, gmt(p.date_modified_gmt)),
  };
}

/**
 * The customer an order was billed to, to store as a customer record beside the order: the
 * store's customer (`customer_id`, 0 for a guest) with the billing name, email and address. Its
 * clock is the order's: WooCommerce sends no time of the customer's own.
 */
function billedCustomer(
  id: string | undefined,
  billing: Payload,
  clock: Date | null,
): RelatedCustomer | undefined {
  const mail = email(billing.email);
  if (!mail) return undefined;
  return {
    id,
    email: mail,
    data: compact({
      email: mail,
      ...customerNames(billing),
      phone: short(billing.phone, 50),
      city: short(billing.city, 200),
      country: short(billing.country, 200),
    }),
    tags: [],
    sourceUpdatedAt: clock,
  };
}

function customer(p: Payload): Mapped {
  const id = idText(p.id);
  if (!id) return refused("The customer has no id.");
  const billing = asObject(p.billing) ?? {};
  const mail = email(p.email) ?? email(billing.email);
  if (!mail)
    return refused(
      "This customer has no email address; Tillflow keeps customers by their email, so it was not stored.",
    );
  const { attributes, leftOut } = rest(p, ["id", "email", "first_name", "last_name", "date_created_gmt"]);
  return {
    kind: "record",
    domain: "customer",
    id,
    data: compact({
      email: mail,
      name: (fullName(p) ?? fullName(billing) ?? "").slice(0, 200),
      ...(text(p.first_name) || text(p.last_name) ? customerNames(p) : customerNames(billing)),
      ordersCount: Math.max(0, Math.trunc(amount(p.orders_count) ?? 0)),
      totalSpent: Math.max(0, amount(p.total_spent) ?? 0),
      createdAt: gmt(p.date_created_gmt)?.toISOString(),
      phone: short(billing.phone, 50),
      city: short(billing.city, 200),
      country: short(billing.country, 200),
      attributes,
    }),
    tags: [],
    sourceUpdatedAt: gmt(p.date_modified_gmt),
    leftOut,
  };
}

/** A product's stock is its `stock_quantity` (WooCommerce counts variations on their own). */
function product(p: Payload): Mapped {
  const id = idText(p.id);
  if (!id) return refused("The product has no id.");
  const status = text(p.status);
  const { attributes, leftOut } = rest(p, ["id", "name", "status", "stock_quantity"]);
  return {
    kind: "record",
    domain: "product",
    id,
    data: compact({
      title: (text(p.name) ?? `Product ${id}`).slice(0, 200),
      inventory: Math.trunc(amount(p.stock_quantity) ?? 0),
      status: status === "publish" ? "active" : status === "trash" ? "archived" : "draft",
      attributes,
    }),
    tags: asArray(p.tags)
      .map((t) => text(asObject(t)?.name))
      .filter((t): t is string => t !== undefined && t.length <= 100),
    sourceUpdatedAt: gmt(p.date_modified_gmt),
    leftOut,
  };
}

const TOPICS: Record<string, (payload: Payload) => Mapped> = {
  "order.created": order,
  "order.updated": order,
  "order.restored": order,
  "customer.created": customer,
  "customer.updated": customer,
  "product.created": product,
  "product.updated": product,
  "product.restored": product,
};

export const WOOCOMMERCE_TOPICS = Object.keys(TOPICS);

/** Fields only one of WooCommerce's resources sends (WC REST v3), and that resource. */
const MARKERS: [field: string, resource: string][] = [
  ["order_key", "order"],
  ["role", "customer"],
  ["username", "customer"],
  ["permalink", "product"],
];

/**
 * WooCommerce's payloads do not name their resource, but each has fields of its own: a body holding
 * another resource's (an order's `order_key` under `customer.created`, say) is not read, as the
 * topic header is not signed.
 */
const sameResource: ResourceCheck = (topic, payload) => {
  const resource = topic.split(".")[0];
  const other = MARKERS.find(([field, of]) => of !== resource && Object.hasOwn(payload, field));
  if (!other) return null;
  return `The body is a WooCommerce ${other[1]} (it has ${other[0]}), which '${topic}' webhooks do not send; nothing was applied. A signed body is read only under the topic it was sent for.`;
};

/** A WooCommerce delivery of `topic` read into what it means for the shop's records. */
export function mapWooCommerce(topic: string, body: unknown): Mapped {
  return readTopic("WooCommerce", TOPICS, topic, body, sameResource);
}
