import { z } from "zod";
import { knownZone } from "@/lib/messaging/zone";

/**
 * The seven entity domains of SPEC §3 and the zod schema of each. Browser-safe: the editor uses
 * these to offer field paths, and the server uses them at every boundary (API, forms, seed).
 * `tags` and `notes` are not part of `data`: they live in their own column and table.
 */

const money = z.number("must be a number").finite().min(0, "cannot be negative");
const isoDate = z.iso.datetime({
  offset: true,
  error: "must be an ISO date-time such as 2026-11-30T09:00:00Z",
});
const id = z.string().trim().min(1, "cannot be empty").max(200);

export const orderStatuses = ["pending", "paid", "fulfilled", "cancelled", "refunded"] as const;

/** How far an order's payment has got, in the store's own words (Shopify's `financial_status`). */
export const financialStatuses = [
  "pending",
  "authorized",
  "partially_paid",
  "paid",
  "partially_refunded",
  "refunded",
  "voided",
] as const;
/** How much of an order has been sent (Shopify's `fulfillment_status`; none sent is `unfulfilled`). */
export const fulfillmentStatuses = ["unfulfilled", "partial", "fulfilled", "restocked"] as const;

/** Every domain's open object: what the record's source sent besides its known fields. */
export const ATTRIBUTES_KEY = "attributes";

/** The most a record keeps of what its source sent besides its known fields: 64 KB of JSON. */
export const MAX_ATTRIBUTES_BYTES = 65_536;

const utf8 = new TextEncoder();

/** The size of a value as JSON, in bytes (UTF-8); browser-safe, unlike `Buffer.byteLength`. */
export function jsonBytes(value: unknown): number {
  return utf8.encode(JSON.stringify(value) ?? "").length;
}

/** "70 KB": a size as a merchant reads it, rounded up so a body just over the limit never reads as 64 KB. */
function kilobytes(bytes: number): string {
  return `${Math.ceil(bytes / 1024)} KB`;
}

/**
 * Everything else the record's source sent (a store's note attributes, a line item's properties…):
 * any JSON object, at most `MAX_ATTRIBUTES_BYTES`. Conditions and tokens reach into it by path
 * (`attributes.note_attributes.0.value`).
 */
const attributes = z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
  const bytes = jsonBytes(value);
  if (bytes > MAX_ATTRIBUTES_BYTES)
    ctx.addIssue({
      code: "custom",
      message: `must be at most ${kilobytes(MAX_ATTRIBUTES_BYTES)} of JSON (this is ${kilobytes(bytes)})`,
    });
});

const shippingAddress = z.strictObject({
  name: z.string().max(200).optional(),
  city: z.string().max(200).optional(),
  province: z.string().max(200).optional(),
  country: z.string().max(200).optional(),
  countryCode: z.string().max(10).optional(),
  zip: z.string().max(50).optional(),
});

export const domainSchemas = {
  order: z.strictObject({
    number: z.string().trim().min(1, "cannot be empty").max(50),
    status: z.enum(orderStatuses),
    total: money,
    currency: z.string().regex(/^[A-Z]{3}$/, "must be a three-letter code such as EUR"),
    email: z.email("must be an email address").optional(),
    customerId: id.optional(),
    lineItems: z
      .array(
        z.strictObject({
          sku: z.string().min(1).max(100),
          title: z.string().max(200).default(""),
          quantity: z.number().int().min(1),
          price: money,
          vendor: z.string().max(200).optional(),
          productType: z.string().max(200).optional(),
          productId: id.optional(),
          variantTitle: z.string().max(200).optional(),
        }),
      )
      .max(500)
      .default([]),
    createdAt: isoDate.optional(),
    shippingAddress: shippingAddress.optional(),
    discountCodes: z.array(z.string().max(100)).max(50).optional(),
    financialStatus: z.enum(financialStatuses).optional(),
    fulfillmentStatus: z.enum(fulfillmentStatuses).optional(),
    sourceName: z.string().max(100).optional(),
    attributes: attributes.optional(),
  }),
  cart: z.strictObject({
    status: z.enum(["open", "abandoned", "converted"]),
    total: money,
    email: z.email("must be an email address").optional(),
    customerId: id.optional(),
    items: z
      .array(
        z.strictObject({ sku: z.string().min(1).max(100), quantity: z.number().int().min(1), price: money }),
      )
      .max(500)
      .default([]),
    updatedAt: isoDate.optional(),
    attributes: attributes.optional(),
  }),
  customer: z.strictObject({
    email: z.email("must be an email address"),
    name: z.string().trim().max(200).default(""),
    /** The name a greeting uses ("Hi {entity.customer.firstName}"), as the store sent it. */
    firstName: z.string().trim().max(100).optional(),
    lastName: z.string().trim().max(100).optional(),
    ordersCount: z.number().int().min(0).default(0),
    totalSpent: money.default(0),
    acceptsMarketing: z.boolean().default(false),
    createdAt: isoDate.optional(),
    phone: z.string().max(50).optional(),
    city: z.string().max(200).optional(),
    /** State or province: with the country, where quiet hours are read (lib/messaging/zone.ts). */
    province: z.string().max(200).optional(),
    country: z.string().max(200).optional(),
    countryCode: z.string().max(10).optional(),
    /** Their own IANA time zone (`Europe/Berlin`), when the store or the API knows it. */
    timezone: z
      .string()
      .refine(knownZone, "must be a time zone such as Europe/Berlin or America/New_York")
      .optional(),
    attributes: attributes.optional(),
  }),
  product: z.strictObject({
    title: z.string().trim().min(1, "cannot be empty").max(200),
    inventory: z.number().int("must be a whole number"),
    status: z.enum(["active", "draft", "archived"]).default("active"),
    attributes: attributes.optional(),
  }),
  refund: z.strictObject({
    orderId: id,
    amount: money,
    reason: z.string().max(500).default(""),
    status: z.enum(["pending", "succeeded", "failed"]).default("pending"),
    attributes: attributes.optional(),
  }),
  shipment: z.strictObject({
    orderId: id,
    status: z.enum(["in_transit", "delivered", "failed"]),
    carrier: z.string().max(100).default(""),
    tracking: z.string().max(200).default(""),
    attributes: attributes.optional(),
  }),
  invoice: z.strictObject({
    customerId: id,
    amount: money,
    status: z.enum(["draft", "sent", "paid", "overdue", "void"]),
    dueAt: isoDate,
    attributes: attributes.optional(),
  }),
} as const;

export type Domain = keyof typeof domainSchemas;
export const DOMAINS = Object.keys(domainSchemas) as Domain[];
/** Domains whose runs have no stored record: the subject is the event's payload. */
export const ENTITYLESS_DOMAINS = ["webhook", "schedule"] as const;

export type DomainData<D extends Domain> = z.infer<(typeof domainSchemas)[D]>;

export function isDomain(value: string): value is Domain {
  return Object.hasOwn(domainSchemas, value);
}

/** How a sentence names a domain: one (`order`), many (`orders`), and one with its article (`an order`). */
export const DOMAIN_LABELS: Record<Domain, { one: string; many: string; a: string }> = {
  order: { one: "order", many: "orders", a: "an order" },
  cart: { one: "cart", many: "carts", a: "a cart" },
  customer: { one: "customer", many: "customers", a: "a customer" },
  product: { one: "product", many: "products", a: "a product" },
  refund: { one: "refund", many: "refunds", a: "a refund" },
  shipment: { one: "shipment", many: "shipments", a: "a shipment" },
  invoice: { one: "invoice", many: "invoices", a: "an invoice" },
};

/**
 * The event named by a new status, where SPEC §4 names one; `<domain>.status_changed` is always
 * emitted as well.
 */
export const STATUS_EVENTS: Partial<Record<Domain, Record<string, string>>> = {
  order: { paid: "order.paid", fulfilled: "order.fulfilled", cancelled: "order.cancelled" },
  shipment: { delivered: "shipment.delivered" },
  invoice: { overdue: "invoice.overdue" },
  cart: { abandoned: "cart.abandoned" },
};
