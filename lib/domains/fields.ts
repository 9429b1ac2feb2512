import { z } from "zod";
import { ATTRIBUTES_KEY, domainSchemas, type Domain } from "./domains";

/**
 * The fields of each domain, read off the zod schemas in `domains.ts` so the two can never drift
 * apart. Browser-safe: the editor offers these paths, and validation checks conditions and
 * `{entity.…}` tokens against them.
 *
 * Paths are dot paths. A numeric segment indexes an array (`lineItems.0.sku`), `*` reads every
 * item (`lineItems.*.sku`) and a selector the item with a field's value
 * (`attributes.note_attributes[name=gift_note].value`; the syntax is above `splitPath`);
 * `domainFields` lists the fields of array items under index `0` as the representative, and
 * `isKnownFieldPath` accepts any index, `*` or selector.
 *
 * `attributes` is open (SPEC §2 "Open records"): whatever the record's source sent besides its
 * known fields. Any path under it (`attributes.note_attributes.0.value`) is a field whose type is
 * `any`, known only from the records themselves (`lib/entities/attribute-paths.ts`).
 */

export type FieldType = "string" | "number" | "boolean" | "date" | "enum" | "array" | "object" | "any";

export interface FieldInfo {
  path: string;
  type: FieldType;
  /** The allowed values of an `enum` field. */
  options?: readonly string[];
  /** An object whose keys are not known in advance (`attributes`): any path under it is a field. */
  open?: true;
}

/** What introspection keeps of a zod schema: its type, and what it contains. */
interface FieldNode {
  type: FieldType;
  options?: readonly string[];
  /** An object's fields. */
  fields?: ReadonlyMap<string, FieldNode>;
  /** An array's item. */
  item?: FieldNode;
  /** Any key: every path under it is a field of type `any`. */
  open?: true;
}

/**
 * What a run's entity carries besides its domain's fields (see `RunEntity`): the id and the tags,
 * which live outside `data`. Notes and the record's own timestamps are not part of it.
 */
const recordSchema = z.object({
  id: z.string(),
  tags: z.array(z.string()),
});

/** Reads a zod schema into a field node; `null` for a kind of schema a field cannot be. */
function describe(schema: z.ZodType): FieldNode | null {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault) {
    return describe(schema.unwrap() as z.ZodType);
  }
  if (schema instanceof z.ZodDate) return { type: "date" };
  // Formats (email, ISO date-time…) are not `ZodString`s in zod 4, but they are strings.
  if (schema instanceof z.ZodStringFormat) {
    return { type: schema.format === "datetime" || schema.format === "date" ? "date" : "string" };
  }
  if (schema instanceof z.ZodString) return { type: "string" };
  if (schema instanceof z.ZodNumber) return { type: "number" };
  if (schema instanceof z.ZodBoolean) return { type: "boolean" };
  if (schema instanceof z.ZodEnum) return { type: "enum", options: schema.options.map(String) };
  // A record of any keys (`attributes`): what is under it is known only from the data.
  if (schema instanceof z.ZodRecord) return { type: "object", open: true };
  if (schema instanceof z.ZodArray) {
    const item = describe(schema.element as z.ZodType);
    return item ? { type: "array", item } : null;
  }
  if (schema instanceof z.ZodObject) {
    const fields = new Map<string, FieldNode>();
    for (const [name, child] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
      const node = describe(child);
      if (node) fields.set(name, node);
    }
    return { type: "object", fields };
  }
  return null;
}

const trees = new Map<Domain, FieldNode>();

function treeOf(domain: Domain): FieldNode {
  let tree = trees.get(domain);
  if (!tree) {
    const shape = { ...recordSchema.shape, ...domainSchemas[domain].shape };
    tree = describe(z.object(shape)) ?? { type: "object", fields: new Map() };
    trees.set(domain, tree);
  }
  return tree;
}

function infoOf(path: string, node: FieldNode): FieldInfo {
  const info: FieldInfo = { path, type: node.type };
  if (node.options) info.options = node.options;
  if (node.open) info.open = true;
  return info;
}

function flatten(node: FieldNode, prefix: string, out: FieldInfo[]): void {
  if (prefix) out.push(infoOf(prefix, node));
  if (node.fields) {
    for (const [name, child] of node.fields) flatten(child, prefix ? `${prefix}.${name}` : name, out);
  }
  // Only items with fields of their own are listed (`lineItems.0.sku`); `tags.0` is a valid path
  // but offering it in a field picker would only add noise.
  if (node.item?.fields) flatten(node.item, `${prefix}.0`, out);
}

const fieldLists = new Map<Domain, FieldInfo[]>();

/** Every field path of a domain's records, in schema order, the common record fields first. */
export function domainFields(domain: Domain): FieldInfo[] {
  let fields = fieldLists.get(domain);
  if (!fields) {
    fields = [];
    flatten(treeOf(domain), "", fields);
    fieldLists.set(domain, fields);
  }
  return fields.map((field) => ({ ...field }));
}

const INDEX = /^(0|[1-9]\d*)$/;

/** Segments that would reach an object's prototype rather than its data. */
const FORBIDDEN_SEGMENTS = new Set(["__proto__", "constructor", "prototype"]);

/**
 * Path syntax (conditions and tokens alike), one dot between segments:
 *
 *   total, lineItems.0.sku          a field; a numeric segment indexes a list
 *   lineItems.*.sku                 any item of a list: the values of every item (a condition
 *                                   matches when any item's does: "any line item's SKU is MUG")
 *   attributes.note_attributes[name=gift_note].value
 *                                   the first item of a list whose `name` is `gift_note`, wherever
 *                                   it is in the list (a note attribute, a line item's property,
 *                                   WooCommerce's `meta_data[key=…]`)
 *
 * A selector's value is compared as text, exactly; it may hold spaces and dots but no `]`, `[`,
 * `{`, `}` or `|` (which end a token), at most 200 characters.
 */
export const SELECTOR_VALUE = "[^\\][{}|]{0,200}";
const SELECTOR_SOURCE = `\\[[\\w-]+=${SELECTOR_VALUE}\\]`;
/** One segment after the first: a key (maybe with a selector), an index, or `*`. */
export const PATH_SEGMENT_SOURCE = `(?:[\\w-]+(?:${SELECTOR_SOURCE})?|\\*)`;
/** A whole path as conditions accept it (dashes past the first segment: an answer's header). */
export const FIELD_PATH = new RegExp(`^[A-Za-z_]\\w*(?:${SELECTOR_SOURCE})?(?:\\.${PATH_SEGMENT_SOURCE})*$`);

const SELECTOR = /^([\w-]*)\[([\w-]+)=([^\][{}|]*)\]$/;

/**
 * A path's segments: split at its dots, but not at a dot inside a selector's brackets
 * (`note_attributes[name=a.b]`). One pass over the text.
 */
export function splitPath(path: string): string[] {
  const segments: string[] = [];
  let start = 0;
  let inside = false;
  for (let i = 0; i < path.length; i++) {
    const c = path[i];
    if (c === "[") inside = true;
    else if (c === "]") inside = false;
    else if (c === "." && !inside) {
      segments.push(path.slice(start, i));
      start = i + 1;
    }
  }
  segments.push(path.slice(start));
  return segments;
}

type Segment =
  | { kind: "key"; key: string }
  | { kind: "any" }
  | { kind: "select"; key: string; field: string; value: string };

function parseSegment(segment: string): Segment | null {
  if (segment === "*") return { kind: "any" };
  if (!segment.includes("[")) return FORBIDDEN_SEGMENTS.has(segment) ? null : { kind: "key", key: segment };
  const match = SELECTOR.exec(segment);
  if (!match) return null;
  const [, key = "", field = "", value = ""] = match;
  if (FORBIDDEN_SEGMENTS.has(key) || FORBIDDEN_SEGMENTS.has(field)) return null;
  return { kind: "select", key, field, value };
}

/** True when the path reads every item of a list (`lineItems.*.sku`): its value is a list of theirs. */
export function readsAnyItem(path: string): boolean {
  return splitPath(path).some((segment) => segment === "*");
}

/**
 * The field at `path` (any array index), or `undefined` when a record of `domain` has no such
 * field. Under an open object (`attributes`) every path is a field of type `any`:
 * `attributes.note_attributes.0.value`, `attributes.note_attributes[name=gift_note].value`. A list
 * takes an index, `*` (any item: `lineItems.*.sku`) or a selector (`lineItems[sku=MUG].quantity`).
 */
export function fieldAt(domain: Domain, path: string): FieldInfo | undefined {
  if (!path) return undefined;
  let node: FieldNode | undefined = treeOf(domain);
  const segments = splitPath(path);
  for (const [i, raw] of segments.entries()) {
    if (!node) return undefined;
    if (node.open) {
      const rest = segments.slice(i);
      return rest.every((s) => s !== "" && parseSegment(s) !== null) ? { path, type: "any" } : undefined;
    }
    const segment = parseSegment(raw);
    if (!segment) return undefined;
    if (node.type === "array") {
      if (segment.kind === "any" || (segment.kind === "key" && INDEX.test(segment.key))) node = node.item;
      else return undefined;
      continue;
    }
    if (segment.kind === "any" || !node.fields?.has(segment.key)) return undefined;
    node = node.fields.get(segment.key);
    if (segment.kind === "select") {
      // `lineItems[sku=MUG]`: an item of the list, chosen by one of its fields.
      if (node?.type !== "array" || !node.item?.fields?.has(segment.field)) return undefined;
      node = node.item;
    }
  }
  return node ? infoOf(path, node) : undefined;
}

/** True when `path` is under a domain's open object: `attributes.gift_note`. */
export function isAttributePath(path: string): boolean {
  return path.startsWith(`${ATTRIBUTES_KEY}.`) && path.length > ATTRIBUTES_KEY.length + 1;
}

/** True when `path` names a field of a `domain` record: `total`, `tags`, `tags.0`, `lineItems.3.price`. */
export function isKnownFieldPath(domain: Domain, path: string): boolean {
  return fieldAt(domain, path) !== undefined;
}

/**
 * Reads a path (syntax above) out of a value: `readPath(order, "lineItems.0.sku")`. Numeric
 * segments index arrays; a selector takes the first item whose field is the value, as text; `*`
 * gives the values of every item (those that have one), as a list. Only own properties are read,
 * so a path can never reach a prototype; anything missing gives `undefined`. Never throws. Linear:
 * each segment is parsed once and each list item looked at once for each `*` or selector.
 */
export function readPath(obj: unknown, path: string): unknown {
  if (path === "") return obj;
  const segments: Segment[] = [];
  for (const raw of splitPath(path)) {
    const segment = parseSegment(raw);
    if (!segment) return undefined;
    segments.push(segment);
  }
  return readSegments(obj, segments, 0);
}

function readSegments(obj: unknown, segments: readonly Segment[], from: number): unknown {
  let current: unknown = obj;
  for (let i = from; i < segments.length; i++) {
    const segment = segments[i]!;
    if (segment.kind === "any") {
      if (!Array.isArray(current)) return undefined;
      const values: unknown[] = [];
      for (const item of current) {
        const value = readSegments(item, segments, i + 1);
        if (value === undefined) continue;
        // A `*` further on gave a list of its own: its values join this one's.
        if (Array.isArray(value) && segments.slice(i + 1).some((s) => s.kind === "any"))
          values.push(...value);
        else values.push(value);
      }
      return values;
    }
    if (segment.key !== "" || segment.kind === "key") current = child(current, segment.key);
    if (segment.kind === "select") {
      if (!Array.isArray(current)) return undefined;
      current = current.find(
        (item) =>
          isRecord(item) &&
          Object.hasOwn(item, segment.field) &&
          textOf(item[segment.field]) === segment.value,
      );
    }
    if (current === undefined) return undefined;
  }
  return current;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !(value instanceof Date) && !Array.isArray(value);
}

function textOf(value: unknown): string | null {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean"
    ? String(value)
    : null;
}

function child(current: unknown, key: string): unknown {
  if (Array.isArray(current)) return INDEX.test(key) ? current[Number(key)] : undefined;
  if (isRecord(current)) return Object.hasOwn(current, key) ? current[key] : undefined;
  return undefined;
}
