import { and, desc, eq, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { entities } from "@/lib/db/schema";
import { ATTRIBUTES_KEY } from "@/lib/domains/domains";
import { parseDomain } from "./service";

/**
 * The paths under `attributes` (what a store sent besides a record's known fields) that a shop's
 * records actually have, so the field picker can offer them (SPEC §2 "Open records"): each with
 * its JSON type, how many of the records looked at have it, and one value as an example.
 */

/** What a value under `attributes` is, in the words the picker shows. */
export type AttributeType = "text" | "number" | "boolean" | "list" | "object" | "empty" | "mixed";

export interface AttributePath {
  /** The full path a condition reads: `attributes.note_attributes.0.value`. */
  path: string;
  type: AttributeType;
  /** How many of the records looked at have it (an empty value counts). */
  records: number;
  /** One value seen there, as text and at most `SAMPLE_CHARS` long; null for a list, an object or nothing. */
  sample: string | null;
}

export interface AttributePaths {
  paths: AttributePath[];
  /** How many records were looked at (the latest `RECORDS_READ`). */
  scanned: number;
}

/** The latest records of a domain that are looked at. */
export const RECORDS_READ = 500;
/** The most paths offered; the ones most records have are kept. */
export const MAX_PATHS = 300;
/** How deep under `attributes` a path goes: `attributes.a.b.c.d.e.f`. */
export const MAX_DEPTH = 6;
/** The first items of a list that are looked into: `.0`, `.1`, `.2`. */
export const LIST_ITEMS = 3;
/** The longest sample shown. */
export const SAMPLE_CHARS = 60;
/** The most paths read out of one record, so one huge record cannot make the walk slow. */
const PATHS_PER_RECORD = 1_000;

/**
 * A key a condition's path can name: letters, digits, underscores and dashes (a key with a dot or
 * a space could never be told apart in a dot path), and never one that reaches a prototype.
 */
const NAMEABLE = /^[\w-]+$/;
const FORBIDDEN = new Set(["__proto__", "constructor", "prototype"]);

function typeOf(value: unknown): AttributeType {
  if (value === null || value === undefined) return "empty";
  if (Array.isArray(value)) return "list";
  switch (typeof value) {
    case "string":
      return "text";
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    case "object":
      return "object";
    default:
      return "empty";
  }
}

function sampleOf(value: unknown): string | null {
  let text: string;
  if (typeof value === "string") text = value;
  else if (typeof value === "number" || typeof value === "boolean") text = String(value);
  else return null;
  text = text.replace(/\s+/g, " ").trim();
  if (text === "") return null;
  return text.length > SAMPLE_CHARS ? `${text.slice(0, SAMPLE_CHARS - 1)}…` : text;
}

/** One path of one record: its type and its value as a sample. */
export interface FlatAttribute {
  path: string;
  type: AttributeType;
  sample: string | null;
}

/** The most items of a list of named values read for their names (`note_attributes[name=…]`). */
export const NAMED_ITEMS = 50;

/** A name a selector can hold (lib/domains/fields.ts): no brackets, braces or `|`, at most 100 characters. */
const SELECTABLE = /^[^\][{}|]{1,100}$/;

/**
 * The field that names the items of a list of named values, or null: Shopify's note attributes
 * and line item properties are `{name, value}`, WooCommerce's `meta_data` is `{key, value}`.
 */
function namingField(list: readonly unknown[]): "name" | "key" | null {
  const first = list[0];
  if (typeof first !== "object" || first === null || Array.isArray(first) || !Object.hasOwn(first, "value"))
    return null;
  if (typeof (first as Record<string, unknown>).name === "string") return "name";
  if (typeof (first as Record<string, unknown>).key === "string") return "key";
  return null;
}

/**
 * Every path of one record's `attributes`, in the order met: objects and lists as well as what
 * they hold (`attributes.shipping_lines`, `attributes.shipping_lines.0`,
 * `attributes.shipping_lines.0.title`), at most `MAX_DEPTH` deep and the first `LIST_ITEMS` of
 * each list. A list of named values is offered by name, wherever a value sits in it:
 * `attributes.note_attributes[name=gift_note].value`, and inside a list, for any of its items:
 * `attributes.line_items.*.properties[name=engraving].value`. Keys a dot path cannot name are left
 * out. Pure; anything but an object gives `[]`.
 */
export function flattenAttributes(attributes: unknown): FlatAttribute[] {
  const out: FlatAttribute[] = [];
  if (typeOf(attributes) !== "object") return out;
  // `any` is the path with a list's index as `*`: where a named value is read for any item.
  const walk = (value: unknown, path: string, any: string, depth: number) => {
    if (out.length >= PATHS_PER_RECORD) return;
    if (depth > 0) out.push({ path, type: typeOf(value), sample: sampleOf(value) });
    if (depth >= MAX_DEPTH) return;
    if (Array.isArray(value)) {
      const naming = namingField(value);
      if (naming) {
        for (const item of value.slice(0, NAMED_ITEMS)) {
          const named = item as Record<string, unknown>;
          const name = named[naming];
          if (typeof name !== "string" || !SELECTABLE.test(name) || !Object.hasOwn(named, "value")) continue;
          if (out.length >= PATHS_PER_RECORD) return;
          const entry = named.value;
          out.push({ path: `${any}[${naming}=${name}].value`, type: typeOf(entry), sample: sampleOf(entry) });
        }
        return;
      }
      value.slice(0, LIST_ITEMS).forEach((item, i) => walk(item, `${path}.${i}`, `${any}.*`, depth + 1));
    } else if (value !== null && typeof value === "object") {
      for (const [key, item] of Object.entries(value)) {
        if (NAMEABLE.test(key) && !FORBIDDEN.has(key))
          walk(item, `${path}.${key}`, `${any}.${key}`, depth + 1);
      }
    }
  };
  walk(attributes, ATTRIBUTES_KEY, ATTRIBUTES_KEY, 0);
  return out;
}

/**
 * The paths of many records' `attributes` (newest first), counted: a path's type is the one every
 * record agrees on ("mixed" when they differ, leaving empty values aside), its sample the newest
 * record's. The `MAX_PATHS` that most records have are kept, in the order they were first met.
 */
export function summariseAttributePaths(records: readonly unknown[]): AttributePath[] {
  const found = new Map<string, AttributePath & { order: number }>();
  for (const attributes of records) {
    const seen = new Set<string>();
    for (const { path, type, sample } of flattenAttributes(attributes)) {
      if (seen.has(path)) continue;
      seen.add(path);
      const entry = found.get(path);
      if (!entry) {
        found.set(path, { path, type, records: 1, sample, order: found.size });
        continue;
      }
      entry.records += 1;
      if (type === "empty") continue;
      if (entry.type === "empty") entry.type = type;
      else if (entry.type !== type) entry.type = "mixed";
      entry.sample ??= sample;
    }
  }
  return [...found.values()]
    .sort((a, b) => b.records - a.records || a.order - b.order)
    .slice(0, MAX_PATHS)
    .sort((a, b) => a.order - b.order)
    .map(({ order: _order, ...path }) => path);
}

/**
 * The attribute paths of this shop's latest `RECORDS_READ` records of `domain`, by last change.
 * Only this shop's records are read. A domain without stored records (webhook, schedule, later)
 * has none: `[]`. An unknown domain is a 404.
 */
export async function attributePaths(tenantId: string, domain: string): Promise<AttributePaths> {
  if (domain === "webhook" || domain === "schedule" || domain === "later") return { paths: [], scanned: 0 };
  const parsed = parseDomain(domain);
  const rows = await getDb()
    .select({ attributes: sql<unknown>`${entities.data} -> ${ATTRIBUTES_KEY}` })
    .from(entities)
    .where(and(eq(entities.tenantId, tenantId), eq(entities.domain, parsed)))
    .orderBy(desc(entities.updatedAt), desc(entities.id))
    .limit(RECORDS_READ);
  return { paths: summariseAttributePaths(rows.map((row) => row.attributes)), scanned: rows.length };
}
