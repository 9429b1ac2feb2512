import type { Domain } from "@/lib/domains/domains";
import { keepAttributes } from "./attributes";

/**
 * What a store's delivery comes to once its platform's shape is read (shopify.ts, woocommerce.ts),
 * before anything is written: a record to upsert through the same path as `PUT /api/v1/entities`,
 * a stock level for a product already stored, or a refusal that says why.
 */
export type Mapped =
  | {
      kind: "record";
      domain: Domain;
      id: string;
      /** The domain's known fields, plus `attributes` (whatever else the source sent). */
      data: Record<string, unknown>;
      /** The record's tags at the source; added to the ones it has here. */
      tags: string[];
      /** The source's `updated_at`: an older delivery than the record holds is stale. */
      sourceUpdatedAt: Date | null;
      /** The source's fields left out of `attributes` to keep them under 64 KB (attributes.ts). */
      leftOut: string[];
      /**
       * An order's or a cart's customer as the body tells of it: stored as a customer record in
       * the same transaction (found by the store's id, else by email) and linked by `customerId`.
       */
      customer?: RelatedCustomer;
      /** Set when the body is Tillflow's own test delivery (sample.ts), read from the signed body. */
      test?: TestMarker;
    }
  | {
      kind: "inventory";
      /** Shopify's inventory item, found in a stored product's `attributes.variants`. */
      inventoryItemId: string;
      /** The level's location (its clock is per item and location); empty when the body names none. */
      locationId: string;
      available: number;
      /** The level's own `updated_at`: one older than the last applied, or than the product, is stale. */
      sourceUpdatedAt: Date | null;
    }
  | { kind: "refused"; reason: string };

export type Payload = Record<string, unknown>;

/** A customer told of inside another record's body (an order's `customer`, its billing details). */
export interface RelatedCustomer {
  /** The store's own id of the customer; absent for a guest, who is found by email. */
  id?: string;
  email: string;
  /** The customer's fields the body knows (merged over the record's: it knows no order count). */
  data: Record<string, unknown>;
  tags: string[];
  /** Its clock: the customer's own `updated_at` where the body has one, else the record's. */
  sourceUpdatedAt: Date | null;
}

/**
 * The key of Tillflow's test delivery marker, at the top of the sample's body (sample.ts). It is
 * inside the signed body, so only a holder of the connection's secret can set it: a header could
 * be added by anyone replaying a real delivery (issue 47) to keep its automations from running.
 */
export const TEST_MARKER = "tillflow_test_delivery";

export interface TestMarker {
  /** "Also run my automations" was ticked. */
  runAutomations: boolean;
}

/** The words a test delivery's record carries (its note and tag), so no one takes it for a sale. */
export const TEST_ORDER_NOTE =
  "Test order from Tillflow: made by “Send a test delivery” in Settings → Connections, not by a customer.";
export const TEST_ORDER_TAG = "tillflow-test";

export const refused = (reason: string): Mapped => ({ kind: "refused", reason });

/** A JSON object, or null for anything else. */
export function asObject(value: unknown): Payload | null {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Payload) : null;
}

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** A non-empty string (trimmed), or undefined: platforms send `null` and `""` for "not set". */
export function text(value: unknown): string | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value !== "string") return undefined;
  const trimmed = value.trim();
  return trimmed === "" ? undefined : trimmed;
}

/**
 * The longest email address there is (RFC 5321's 254 characters). Checked before the pattern,
 * whose backtracking is quadratic in the length: 100,000 characters of "a@...@" took 7.6 s.
 */
const MAX_EMAIL = 254;

/** An email address, or undefined for anything that is not one (the domains' schemas refuse it). */
export function email(value: unknown): string | undefined {
  const v = text(value);
  return v && v.length <= MAX_EMAIL && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v) ? v : undefined;
}

/** Text cut to the most a known field keeps (the rest of a long value is of no use to a flow). */
export function short(value: unknown, max: number): string | undefined {
  return text(value)?.slice(0, max);
}

/** An id as text: platforms send ids as numbers (Shopify's exceed 2^53 only as strings). */
export function idText(value: unknown): string | undefined {
  const id = text(value);
  return id && /^[A-Za-z0-9._:-]{1,200}$/.test(id) ? id : undefined;
}

/** A number sent as a number or as a decimal string ("19.99"), or undefined. */
export function amount(value: unknown): number | undefined {
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof n === "number" && Number.isFinite(n) ? n : undefined;
}

/** An instant: ISO with an offset, or WooCommerce's `_gmt` form without one (which is UTC). */
export function instant(value: unknown, { utcIfBare = false } = {}): Date | null {
  const raw = text(value);
  if (!raw) return null;
  const withZone = utcIfBare && /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?$/.test(raw) ? `${raw}Z` : raw;
  const date = new Date(withZone);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The most tags a record keeps (as `PUT /api/v1/entities`). */
const MAX_TAGS = 250;

/**
 * Shopify's tags, "vip, wholesale", as a list: the first 250 different ones of at most 100
 * characters. Read one at a time and no further than the 250th, so a 2 MB string of commas (or a
 * list of 60,000) is not first split into a million strings.
 */
export function tagList(value: unknown): string[] {
  const tags = new Set<string>();
  const add = (raw: string) => {
    const tag = raw.trim();
    if (tag !== "" && tag.length <= 100) tags.add(tag);
    return tags.size < MAX_TAGS;
  };
  if (typeof value === "string") {
    for (let from = 0; from <= value.length;) {
      const comma = value.indexOf(",", from);
      const end = comma < 0 ? value.length : comma;
      if (!add(value.slice(from, end))) break;
      from = end + 1;
    }
  } else {
    for (const item of asArray(value)) if (!add(String(item))) break;
  }
  return [...tags];
}

/** The object without its `undefined` fields (zod's optional fields refuse nothing else). */
export function compact<T extends Record<string, unknown>>(object: T): Partial<T> {
  return Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * Everything in `payload` but `consumed`: what the record keeps under `attributes`, at most 64 KB
 * of it (the largest fields left out, attributes.ts), and the fields left out. Read in one pass,
 * without first copying a payload of 60,000 fields into an object of its own.
 */
export function rest(
  payload: Payload,
  consumed: readonly string[],
): { attributes: Payload; leftOut: string[] } {
  const { kept, leftOut } = keepAttributes(payload, consumed);
  return { attributes: kept, leftOut };
}

/**
 * Why a body cannot be of `topic`'s resource (a customer's body under `products/create`, say), or
 * null. The topic header is not signed (issue 47): a body signed for one topic, posted again under
 * another, must not become a record of another kind.
 */
export type ResourceCheck = (topic: string, payload: Payload) => string | null;

/**
 * A platform's delivery of `topic` read by the reader its `topics` table names for it; a topic
 * Tillflow does not read, a body that is not an object, or one of another resource than the
 * topic's (`check`) is refused with what to do.
 */
export function readTopic(
  platform: string,
  topics: Record<string, (payload: Payload) => Mapped>,
  topic: string,
  body: unknown,
  check: ResourceCheck,
): Mapped {
  const read = Object.hasOwn(topics, topic) ? topics[topic] : undefined;
  if (!read)
    return refused(
      `Tillflow does not use ${platform}'s '${topic}' webhooks; it reads ${Object.keys(topics).join(", ")}. Delete that webhook in ${platform} to stop these.`,
    );
  const payload = asObject(body);
  if (!payload) return refused("The body is not a JSON object.");
  const other = check(topic, payload);
  if (other) return refused(other);
  if (!Object.hasOwn(payload, TEST_MARKER)) return read(payload);
  // Tillflow's own test delivery: the marker is read and left out of the record's attributes.
  const { [TEST_MARKER]: marker, ...sample } = payload;
  const mapped = read(sample);
  if (mapped.kind !== "record") return mapped;
  const notes = Array.isArray(mapped.data.notes) ? mapped.data.notes : [];
  return {
    ...mapped,
    data: { ...mapped.data, notes: [...notes, TEST_ORDER_NOTE] },
    tags: [...mapped.tags, TEST_ORDER_TAG],
    // Its customer too, so the sample's customer is not taken for a real one in Customers.
    customer: mapped.customer && { ...mapped.customer, tags: [...mapped.customer.tags, TEST_ORDER_TAG] },
    test: { runAutomations: asObject(marker)?.run_automations === true },
  };
}

/** A customer's first and last name, each as the store sent it, and the two as one `name`. */
export function customerNames(party: Payload): { name?: string; firstName?: string; lastName?: string } {
  const firstName = short(party.first_name, 100);
  const lastName = short(party.last_name, 100);
  const name = [firstName, lastName].filter(Boolean).join(" ").slice(0, 200);
  return compact({ name: name || undefined, firstName, lastName });
}
