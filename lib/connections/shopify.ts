import { financialStatuses, fulfillmentStatuses, orderStatuses } from "@/lib/domains/domains";
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
  tagList,
  text,
  type Mapped,
  type Payload,
  type RelatedCustomer,
} from "./mapped";

/**
 * Shopify's webhook payloads (Admin REST API shapes, as its webhooks send them) read into
 * Tillflow's records. Known fields are mapped; everything else the store sent stays under
 * `attributes` (note attributes, the customer's tags, line items' properties…), so a flow can
 * test any of it. Pure: the tests feed it the fixtures in tests/fixtures/shopify/.
 */

type OrderStatus = (typeof orderStatuses)[number];

/** Our status from Shopify's three: cancelled wins, then refunded, fulfilled, paid. */
function orderStatus(order: Payload): OrderStatus {
  if (text(order.cancelled_at)) return "cancelled";
  const financial = text(order.financial_status);
  if (financial === "refunded") return "refunded";
  if (text(order.fulfillment_status) === "fulfilled") return "fulfilled";
  if (financial === "paid" || financial === "partially_refunded") return "paid";
  return "pending";
}

function oneOf(value: unknown, allowed: readonly string[]): string | undefined {
  const v = text(value);
  return v && allowed.includes(v) ? v : undefined;
}

function lineItem(raw: unknown) {
  const item = asObject(raw) ?? {};
  return compact({
    // A custom item has no SKU; its variant (or line) id tells it apart.
    sku:
      short(item.sku, 100) ?? idText(item.variant_id) ?? idText(item.product_id) ?? idText(item.id) ?? "item",
    title: (text(item.title) ?? text(item.name) ?? "").slice(0, 200),
    quantity: Math.max(1, Math.trunc(amount(item.quantity) ?? 1)),
    price: Math.max(0, amount(item.price) ?? 0),
    vendor: short(item.vendor, 200),
    productType: short(item.product_type, 200),
    productId: idText(item.product_id),
    variantTitle: short(item.variant_title, 200),
  });
}

function address(raw: unknown) {
  const a = asObject(raw);
  if (!a) return undefined;
  const name =
    short(a.name, 200) ??
    ([text(a.first_name), text(a.last_name)].filter(Boolean).join(" ").slice(0, 200) || undefined);
  const mapped = compact({
    name,
    city: short(a.city, 200),
    province: short(a.province, 200),
    country: short(a.country, 200),
    countryCode: short(a.country_code, 10),
    zip: short(a.zip, 50),
  });
  return Object.keys(mapped).length > 0 ? mapped : undefined;
}

/**
 * The customer an order or a checkout carries (`customer`, as Shopify embeds it): the fields it
 * knows, to store as a customer record beside the order. Shopify's newer API versions leave the
 * order count and total spent out of it, so those stay as the customer record has them. Without
 * the customer's own email the order's is used; with neither there is no customer to keep.
 */
function embeddedCustomer(p: Payload, fallbackEmail: string | undefined): RelatedCustomer | undefined {
  const c = asObject(p.customer);
  const mail = email(c?.email) ?? fallbackEmail;
  if (!mail) return undefined;
  const id = idText(c?.id);
  if (!c) return { email: mail, data: { email: mail }, tags: [], sourceUpdatedAt: instant(p.updated_at) };
  const address = asObject(c.default_address) ?? {};
  const consent = text(asObject(c.email_marketing_consent)?.state);
  const orders = amount(c.orders_count);
  const spent = amount(c.total_spent);
  return {
    id,
    email: mail,
    data: compact({
      email: mail,
      ...customerNames(c),
      ordersCount: orders === undefined ? undefined : Math.max(0, Math.trunc(orders)),
      totalSpent: spent === undefined ? undefined : Math.max(0, spent),
      acceptsMarketing: consent
        ? consent === "subscribed"
        : typeof c.accepts_marketing === "boolean"
          ? c.accepts_marketing
          : undefined,
      createdAt: instant(c.created_at)?.toISOString(),
      phone: short(c.phone, 50),
      city: short(address.city, 200),
      country: short(address.country, 200),
    }),
    tags: tagList(c.tags),
    sourceUpdatedAt: instant(c.updated_at) ?? instant(p.updated_at),
  };
}

function order(p: Payload): Mapped {
  const id = idText(p.id);
  if (!id) return refused("The order has no id.");
  const discountCodes = asArray(p.discount_codes)
    .map((d) => short(asObject(d)?.code, 100))
    .filter((c): c is string => c !== undefined);
  const { attributes, leftOut } = rest(p, ["id", "name", "email", "currency", "total_price", "created_at"]);
  return {
    kind: "record",
    domain: "order",
    id,
    data: compact({
      number: short(p.name, 50) ?? `#${text(p.order_number) ?? id}`.slice(0, 50),
      status: orderStatus(p),
      total: amount(p.current_total_price) ?? amount(p.total_price) ?? 0,
      currency: text(p.currency) ?? "USD",
      email: email(p.email) ?? email(p.contact_email),
      customerId: idText(asObject(p.customer)?.id),
      lineItems: asArray(p.line_items).slice(0, 500).map(lineItem),
      createdAt: instant(p.created_at)?.toISOString(),
      shippingAddress: address(p.shipping_address),
      discountCodes: discountCodes.length > 0 ? discountCodes.slice(0, 50) : undefined,
      financialStatus: oneOf(p.financial_status, financialStatuses),
      fulfillmentStatus: oneOf(p.fulfillment_status ?? "unfulfilled", fulfillmentStatuses),
      sourceName: short(p.source_name, 100),
      attributes,
    }),
    tags: tagList(p.tags),
    sourceUpdatedAt: instant(p.updated_at),
    leftOut,
    customer: embeddedCustomer(p, email(p.email) ?? email(p.contact_email)),
  };
}

function customer(p: Payload): Mapped {
  const id = idText(p.id);
  if (!id) return refused("The customer has no id.");
  const address = asObject(p.default_address) ?? {};
  const consent = text(asObject(p.email_marketing_consent)?.state);
  const mail = email(p.email);
  if (!mail)
    return refused(
      "This customer has no email address; Tillflow keeps customers by their email, so it was not stored.",
    );
  const { attributes, leftOut } = rest(p, ["id", "email", "first_name", "last_name", "created_at"]);
  return {
    kind: "record",
    domain: "customer",
    id,
    data: compact({
      email: mail,
      name: "",
      ...customerNames(p),
      ordersCount: Math.max(0, Math.trunc(amount(p.orders_count) ?? 0)),
      totalSpent: Math.max(0, amount(p.total_spent) ?? 0),
      acceptsMarketing: consent ? consent === "subscribed" : p.accepts_marketing === true,
      createdAt: instant(p.created_at)?.toISOString(),
      phone: short(p.phone, 50),
      city: short(address.city, 200),
      country: short(address.country, 200),
      attributes,
    }),
    tags: tagList(p.tags),
    sourceUpdatedAt: instant(p.updated_at),
    leftOut,
  };
}

/** An abandoned checkout is a cart: open until Shopify marks it completed. */
function checkout(p: Payload): Mapped {
  const id = idText(p.id) ?? idText(p.token);
  if (!id) return refused("The checkout has no id.");
  const { attributes, leftOut } = rest(p, ["id", "email", "total_price", "updated_at"]);
  return {
    kind: "record",
    domain: "cart",
    id,
    data: compact({
      status: text(p.completed_at) ? "converted" : "open",
      total: Math.max(0, amount(p.total_price) ?? 0),
      email: email(p.email),
      customerId: idText(asObject(p.customer)?.id),
      items: asArray(p.line_items)
        .slice(0, 500)
        .map((raw) => {
          const { sku, quantity, price } = lineItem(raw);
          return { sku, quantity, price };
        }),
      updatedAt: instant(p.updated_at)?.toISOString(),
      attributes,
    }),
    tags: [],
    sourceUpdatedAt: instant(p.updated_at),
    leftOut,
    customer: embeddedCustomer(p, email(p.email)),
  };
}

function refund(p: Payload): Mapped {
  const id = idText(p.id);
  const orderId = idText(p.order_id);
  if (!id || !orderId) return refused("The refund has no id or no order id.");
  const refunds = asArray(p.transactions)
    .map((t) => asObject(t) ?? {})
    .filter((t) => text(t.kind) === "refund" && text(t.status) !== "failure" && text(t.status) !== "error");
  const fromItems = asArray(p.refund_line_items).reduce<number>(
    (sum, item) => sum + (amount(asObject(item)?.subtotal) ?? 0),
    0,
  );
  const refunded = refunds.reduce<number>((sum, t) => sum + (amount(t.amount) ?? 0), 0);
  const { attributes, leftOut } = rest(p, ["id", "order_id", "note"]);
  return {
    kind: "record",
    domain: "refund",
    id,
    data: compact({
      orderId,
      amount: Math.max(0, refunds.length > 0 ? refunded : fromItems),
      reason: (text(p.note) ?? "").slice(0, 500),
      status: refunds.some((t) => text(t.status) === "pending") ? "pending" : "succeeded",
      attributes,
    }),
    tags: [],
    // A refund is written once; when it was processed orders its copies.
    sourceUpdatedAt: instant(p.processed_at) ?? instant(p.created_at),
    leftOut,
  };
}

/** A fulfillment is a shipment: delivered or failed as its tracking says, else in transit. */
function fulfillment(p: Payload): Mapped {
  const id = idText(p.id);
  const orderId = idText(p.order_id);
  if (!id || !orderId) return refused("The fulfillment has no id or no order id.");
  const shipment = text(p.shipment_status);
  const state = text(p.status);
  const status =
    shipment === "delivered"
      ? "delivered"
      : shipment === "failure" || state === "cancelled" || state === "error" || state === "failure"
        ? "failed"
        : "in_transit";
  const { attributes, leftOut } = rest(p, ["id", "order_id", "tracking_company", "tracking_number"]);
  return {
    kind: "record",
    domain: "shipment",
    id,
    data: compact({
      orderId,
      status,
      carrier: (text(p.tracking_company) ?? "").slice(0, 100),
      tracking: (text(p.tracking_number) ?? text(asArray(p.tracking_numbers)[0]) ?? "").slice(0, 200),
      attributes,
    }),
    tags: [],
    sourceUpdatedAt: instant(p.updated_at),
    leftOut,
  };
}

/** A product's stock is the sum of its variants' (as Shopify's admin shows it). */
function product(p: Payload): Mapped {
  const id = idText(p.id);
  if (!id) return refused("The product has no id.");
  const status = text(p.status);
  const { attributes, leftOut } = rest(p, ["id", "title", "status"]);
  return {
    kind: "record",
    domain: "product",
    id,
    data: compact({
      title: (text(p.title) ?? `Product ${id}`).slice(0, 200),
      inventory: asArray(p.variants).reduce<number>(
        (sum, v) => sum + Math.trunc(amount(asObject(v)?.inventory_quantity) ?? 0),
        0,
      ),
      status: status === "draft" || status === "archived" ? status : "active",
      attributes,
    }),
    tags: tagList(p.tags),
    sourceUpdatedAt: instant(p.updated_at),
    leftOut,
  };
}

function inventoryLevel(p: Payload): Mapped {
  const inventoryItemId = idText(p.inventory_item_id);
  const available = amount(p.available);
  if (!inventoryItemId || available === undefined)
    return refused("The inventory level has no inventory item or no available quantity.");
  return {
    kind: "inventory",
    inventoryItemId,
    locationId: idText(p.location_id) ?? "",
    available: Math.trunc(available),
    sourceUpdatedAt: instant(p.updated_at),
  };
}

const TOPICS: Record<string, (payload: Payload) => Mapped> = {
  "orders/create": order,
  "orders/updated": order,
  "orders/paid": order,
  "orders/fulfilled": order,
  "orders/partially_fulfilled": order,
  "orders/cancelled": order,
  "customers/create": customer,
  "customers/update": customer,
  "checkouts/create": checkout,
  "checkouts/update": checkout,
  "refunds/create": refund,
  "fulfillments/create": fulfillment,
  "fulfillments/update": fulfillment,
  "products/create": product,
  "products/update": product,
  "inventory_levels/update": inventoryLevel,
};

/** The resource an `admin_graphql_api_id` names, as the first part of the topics that send it. */
const GID_TOPICS: Record<string, string> = {
  Order: "orders",
  Customer: "customers",
  Checkout: "checkouts",
  AbandonedCheckout: "checkouts",
  Refund: "refunds",
  Fulfillment: "fulfillments",
  Product: "products",
  InventoryLevel: "inventory_levels",
};

/**
 * Shopify names a payload's resource in its `admin_graphql_api_id` (`gid://shopify/Order/1`), which
 * the signature covers: a body naming another resource than the topic's is not read (a body
 * without one is read as its topic says).
 */
const sameResource: ResourceCheck = (topic, payload) => {
  const gid = typeof payload.admin_graphql_api_id === "string" ? payload.admin_graphql_api_id : "";
  const kind = /^gid:\/\/shopify\/([A-Za-z]{1,50})\//.exec(gid)?.[1];
  const family = kind && Object.hasOwn(GID_TOPICS, kind) ? GID_TOPICS[kind] : undefined;
  if (!family || topic.startsWith(`${family}/`)) return null;
  return `The body is a Shopify ${kind} (its admin_graphql_api_id says so), which '${topic}' webhooks do not send; nothing was applied. A signed body is read only under the topic it was sent for.`;
};

/** The topics Tillflow reads, for Settings and the docs. */
export const SHOPIFY_TOPICS = Object.keys(TOPICS);

/** A Shopify delivery of `topic` read into what it means for the shop's records. */
export function mapShopify(topic: string, body: unknown): Mapped {
  return readTopic("Shopify", TOPICS, topic, body, sameResource);
}
