import { z } from "zod";

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
        }),
      )
      .max(500)
      .default([]),
    createdAt: isoDate.optional(),
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
  }),
  customer: z.strictObject({
    email: z.email("must be an email address"),
    name: z.string().trim().max(200).default(""),
    ordersCount: z.number().int().min(0).default(0),
    totalSpent: money.default(0),
    acceptsMarketing: z.boolean().default(false),
    createdAt: isoDate.optional(),
  }),
  product: z.strictObject({
    title: z.string().trim().min(1, "cannot be empty").max(200),
    inventory: z.number().int("must be a whole number"),
    status: z.enum(["active", "draft", "archived"]).default("active"),
  }),
  refund: z.strictObject({
    orderId: id,
    amount: money,
    reason: z.string().max(500).default(""),
    status: z.enum(["pending", "succeeded", "failed"]).default("pending"),
  }),
  shipment: z.strictObject({
    orderId: id,
    status: z.enum(["in_transit", "delivered", "failed"]),
    carrier: z.string().max(100).default(""),
    tracking: z.string().max(200).default(""),
  }),
  invoice: z.strictObject({
    customerId: id,
    amount: money,
    status: z.enum(["draft", "sent", "paid", "overdue", "void"]),
    dueAt: isoDate,
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
