import { formatMoney } from "@/lib/money/format";
import {
  ATTRIBUTES_KEY,
  DOMAIN_LABELS,
  isDomain,
  type Domain,
  type financialStatuses,
  type fulfillmentStatuses,
} from "./domains";
import { splitPath } from "./fields";

type FinancialStatus = (typeof financialStatuses)[number];
type FulfillmentStatus = (typeof fulfillmentStatuses)[number];

/*
 * Records as people recognise them, for pickers ("try this flow on order #1001") and sentences
 * ("Would add tag 'vip' to order #1001"). Pure: the picker's query is `lib/entities/options.ts`.
 */

function text(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : null;
}

/** "€780.00" in the record's currency, as every other screen writes money. */
function amount(value: unknown, currency?: unknown): string | null {
  if (typeof value !== "number") return null;
  return formatMoney(value, text(currency)?.toUpperCase() ?? null);
}

/** "#1001" for order number 1001 or "#1001". */
function orderNumber(value: unknown, id: string): string {
  const number = text(value);
  if (!number) return `'${id}'`;
  return number.startsWith("#") ? number : `#${number}`;
}

/** How a sentence names a record: "order #1001", "customer ada@example.com", "product 'Mug'". */
export function entityName(domain: Domain, id: string, data: Record<string, unknown>): string {
  const one = DOMAIN_LABELS[domain].one;
  switch (domain) {
    case "order":
      return `${one} ${orderNumber(data.number, id)}`;
    case "customer":
      return `${one} ${text(data.email) ?? `'${id}'`}`;
    case "product":
      return `${one} '${text(data.title) ?? id}'`;
    default:
      return `${one} '${id}'`;
  }
}

/** A picker line: "Order #1001 · ada@example.com · paid". */
export function entityLabel(domain: Domain, id: string, data: Record<string, unknown>): string {
  const name = entityName(domain, id, data);
  const parts: (string | null)[] = [name.charAt(0).toUpperCase() + name.slice(1)];
  switch (domain) {
    case "order":
      parts.push(text(data.email), amount(data.total, data.currency));
      break;
    case "cart":
      parts.push(text(data.email), amount(data.total));
      break;
    case "customer":
      parts.push(text(data.name));
      break;
    case "product":
      parts.push(typeof data.inventory === "number" ? `${data.inventory} in stock` : null);
      break;
    case "refund":
    case "invoice":
      parts.push(amount(data.amount));
      break;
    case "shipment":
      parts.push(text(data.carrier), text(data.tracking));
      break;
  }
  parts.push(text(data.status));
  return parts.filter((part): part is string => part !== null).join(" · ");
}

/** "€65.00" for (65, "EUR") in the record's own currency; a code Intl does not know stays after the amount. */
function money(value: unknown, currency: unknown): string | null {
  if (typeof value !== "number") return null;
  const code = text(currency)?.toUpperCase();
  return code ? formatMoney(value, code) : String(value);
}

/**
 * How run history names a record, the way merchants do: "Order #1022 · €65.00 · ada@example.com",
 * "Customer Ada Lovelace (ada@example.com)". Unlike `entityLabel` (a picker line) it leaves out the
 * status, which changes after the run and would read as the status the run saw.
 */
export function entityTitle(domain: Domain, id: string, data: Record<string, unknown>): string {
  if (domain === "customer") {
    const name = text(data.name);
    const email = text(data.email);
    if (name) return `Customer ${name}${email ? ` (${email})` : ""}`;
    return `Customer ${email ?? `'${id}'`}`;
  }
  const name = entityName(domain, id, data);
  const parts: (string | null)[] = [name.charAt(0).toUpperCase() + name.slice(1)];
  switch (domain) {
    case "order":
    case "cart":
      parts.push(money(data.total, data.currency), text(data.email));
      break;
    case "refund":
    case "invoice":
      parts.push(money(data.amount, data.currency));
      break;
  }
  return parts.filter((part): part is string => part !== null).join(" · ");
}

/**
 * The run-history name of a run's subject: its title while the record exists, "order ord_1022
 * (deleted)" once it is gone, and null for subjects that are not stored records (webhooks, schedules).
 */
export function runEntityTitle(
  domain: string,
  id: string | null,
  data: Record<string, unknown> | null,
): string | null {
  if (!id || !isDomain(domain)) return null;
  if (data) return entityTitle(domain, id, data);
  return `${DOMAIN_LABELS[domain].one} ${id} (deleted)`;
}

/**
 * Field names as a merchant reads them. A field missing here is spelt out from its name
 * (`acceptsMarketing` → "Accepts marketing").
 */
const FIELD_WORDS: Record<string, string> = {
  id: "ID",
  tags: "Tags",
  number: "Number",
  status: "Status",
  total: "Total",
  currency: "Currency",
  email: "Email",
  customerId: "Customer",
  customer: "Customer",
  orderId: "Order",
  lineItems: "Line items",
  items: "Items",
  sku: "SKU",
  title: "Title",
  quantity: "Quantity",
  price: "Price",
  createdAt: "Created",
  updatedAt: "Updated",
  dueAt: "Due",
  name: "Name",
  firstName: "First name",
  lastName: "Last name",
  ordersCount: "Orders",
  totalSpent: "Total spent",
  acceptsMarketing: "Accepts marketing",
  inventory: "Stock",
  amount: "Amount",
  reason: "Reason",
  carrier: "Carrier",
  tracking: "Tracking number",
  shippingAddress: "Shipping address",
  discountCodes: "Discount codes",
  financialStatus: "Payment status",
  fulfillmentStatus: "Fulfillment status",
  sourceName: "Sales channel",
  vendor: "Vendor",
  productType: "Product type",
  productId: "Product",
  variantTitle: "Variant",
  phone: "Phone",
  city: "City",
  province: "Province or state",
  country: "Country",
  countryCode: "Country code",
  timezone: "Time zone",
  zip: "Postal code",
  attributes: "From the store",
};

/** Whole paths a merchant names in words of their own: "Shipping country code", not "Shipping address › Country code". */
const PATH_WORDS: Record<string, string> = {
  "shippingAddress.name": "Shipping name",
  "shippingAddress.city": "Shipping city",
  "shippingAddress.province": "Shipping province or state",
  "shippingAddress.country": "Shipping country",
  "shippingAddress.countryCode": "Shipping country code",
  "shippingAddress.zip": "Shipping postal code",
};

/** An order's payment status as a merchant reads it (`financialStatus`). */
export const FINANCIAL_STATUS_LABELS: Record<FinancialStatus, string> = {
  pending: "Payment pending",
  authorized: "Authorized",
  partially_paid: "Partially paid",
  paid: "Paid",
  partially_refunded: "Partially refunded",
  refunded: "Refunded",
  voided: "Voided",
};

/** An order's fulfillment status as a merchant reads it (`fulfillmentStatus`). */
export const FULFILLMENT_STATUS_LABELS: Record<FulfillmentStatus, string> = {
  unfulfilled: "Unfulfilled",
  partial: "Partially fulfilled",
  fulfilled: "Fulfilled",
  restocked: "Restocked",
};

/** Channels a store names in its own code (Shopify's `source_name`), as a merchant calls them. */
const SALES_CHANNELS: Record<string, string> = {
  web: "Online store",
  pos: "Point of sale",
  shopify_draft_order: "Draft order",
  iphone: "Mobile app",
  android: "Mobile app",
  checkout: "Checkout",
  admin: "Admin",
};

/** An order's sales channel (`sourceName`) in words: "Online store" for `web`; another as the store named it. */
export function salesChannelLabel(sourceName: string): string {
  return Object.hasOwn(SALES_CHANNELS, sourceName) ? SALES_CHANNELS[sourceName]! : sourceName;
}

/** The words for a stored payment or fulfillment status; a value this version does not know is spelt out. */
export function statusWords(labels: Record<string, string>, value: string): string {
  return Object.hasOwn(labels, value) ? labels[value]! : spelt(value);
}

const ORDINALS = [
  "First",
  "Second",
  "Third",
  "Fourth",
  "Fifth",
  "Sixth",
  "Seventh",
  "Eighth",
  "Ninth",
  "Tenth",
];

/** "Accepts marketing" for `acceptsMarketing`, "Gift note" for `gift_note`. */
function spelt(name: string): string {
  const words = name
    .replace(/([a-z\d])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function fieldWord(name: string): string {
  return Object.hasOwn(FIELD_WORDS, name) ? FIELD_WORDS[name]! : spelt(name);
}

/** One item of a list: "Line items" → "line item". */
function singular(label: string): string {
  const lower = /^[A-Z][a-z]/.test(label) ? label.charAt(0).toLowerCase() + label.slice(1) : label;
  return lower.endsWith("s") ? lower.slice(0, -1) : lower;
}

/**
 * A field path as a merchant reads it: `customerId` → "Customer", `createdAt` → "Created",
 * `lineItems.0.sku` → "First line item › SKU", `tags.2` → "Third tag",
 * `shippingAddress.countryCode` → "Shipping country code". A path under `attributes` (what the
 * store sent) keeps the store's own names, which are what the merchant knows it by:
 * `attributes.note_attributes.0.value` → "note_attributes.0.value from the store".
 */
export function fieldLabel(path: string): string {
  if (Object.hasOwn(PATH_WORDS, path)) return PATH_WORDS[path]!;
  if (path.startsWith(`${ATTRIBUTES_KEY}.`) && path.length > ATTRIBUTES_KEY.length + 1)
    return storeFieldLabel(path.slice(ATTRIBUTES_KEY.length + 1));
  const segments = splitPath(path).filter((segment) => segment !== "");
  const parts: string[] = [];
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    const next = segments[i + 1];
    const selected = SELECTED.exec(segment);
    if (selected) {
      // `lineItems[sku=MUG]` → `Line item "MUG"`.
      const item = singular(fieldWord(selected[1]!));
      parts.push(`${item.charAt(0).toUpperCase()}${item.slice(1)} "${selected[3]}"`);
    } else if (next === "*") {
      parts.push(`Any ${singular(fieldWord(segment))}`);
      i++;
    } else if (next !== undefined && /^\d+$/.test(next)) {
      const index = Number(next);
      const item = singular(fieldWord(segment));
      parts.push(index < ORDINALS.length ? `${ORDINALS[index]} ${item}` : `${spelt(item)} ${index + 1}`);
      i++;
    } else {
      parts.push(/^\d+$/.test(segment) ? `Item ${Number(segment) + 1}` : fieldWord(segment));
    }
  }
  return parts.join(" › ");
}

/** A segment with a selector: `note_attributes[name=gift_note]` → list, field, value. */
const SELECTED = /^([\w-]+)\[([\w-]+)=([^\]]*)\]$/;

/**
 * What a store sent, under `attributes`, in the store's own names: lists of named values read by
 * name (`note_attributes[name=gift_note].value` → `Note attribute "gift_note"`,
 * `line_items.*.properties[name=engraving].value` → `Any line item's property "engraving"`,
 * WooCommerce's `meta_data[key=gift_message].value` → `Meta field "gift_message"`); any other path
 * as it is: "note_attributes.0.value from the store".
 */
export function storeFieldLabel(rest: string): string {
  const named =
    /^(?:(line_items)\.\*\.)?(note_attributes|properties|meta_data)\[(name|key)=([^\]]*)\]\.value$/.exec(
      rest,
    );
  if (named) {
    const [, items, list, , name] = named;
    const what =
      list === "note_attributes" ? "Note attribute" : list === "meta_data" ? "Meta field" : "Property";
    if (!items) return `${what} "${name}"`;
    return `Any line item's ${what.toLowerCase()} "${name}"`;
  }
  return `${rest} from the store`;
}

/** A label inside a sentence: "Created" → "created", but "SKU" and "ID" stay as they are. */
export function inSentence(label: string): string {
  return /^[A-Z][a-z]/.test(label) ? label.charAt(0).toLowerCase() + label.slice(1) : label;
}
