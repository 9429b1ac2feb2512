import { z } from "zod";
import { ATTRIBUTES_KEY, domainSchemas, type Domain } from "./domains";

/**
 * The fields of each domain, read off the zod schemas in `domains.ts` so the two can never drift
 * apart. Browser-safe: the editor offers these paths, and validation checks conditions and
 * `{entity.…}` tokens against them.
 *
 * Paths are dot paths. A numeric segment indexes an array (`lineItems.0.sku`); `domainFields`
 * lists the fields of array items under index `0` as the representative, and `isKnownFieldPath`
 * accepts any index.
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
 * The field at `path` (any array index), or `undefined` when a record of `domain` has no such
 * field. Under an open object (`attributes`) every path is a field of type `any`:
 * `attributes.note_attributes.0.value`.
 */
export function fieldAt(domain: Domain, path: string): FieldInfo | undefined {
  if (!path) return undefined;
  let node: FieldNode | undefined = treeOf(domain);
  const segments = path.split(".");
  for (const [i, segment] of segments.entries()) {
    if (!node) return undefined;
    if (node.open) {
      const rest = segments.slice(i);
      return rest.every((s) => s !== "" && !FORBIDDEN_SEGMENTS.has(s)) ? { path, type: "any" } : undefined;
    }
    if (node.type === "array") node = INDEX.test(segment) ? node.item : undefined;
    else if (node.fields?.has(segment)) node = node.fields.get(segment);
    else return undefined;
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
 * Reads a dot path out of a value: `readPath(order, "lineItems.0.sku")`. Numeric segments index
 * arrays. Only own properties are read, so a path can never reach a prototype; anything missing
 * gives `undefined`. Never throws.
 */
export function readPath(obj: unknown, path: string): unknown {
  if (path === "") return obj;
  let current: unknown = obj;
  for (const segment of path.split(".")) {
    if (FORBIDDEN_SEGMENTS.has(segment)) return undefined;
    if (Array.isArray(current)) {
      if (!INDEX.test(segment)) return undefined;
      current = current[Number(segment)];
    } else if (typeof current === "object" && current !== null && !(current instanceof Date)) {
      if (!Object.hasOwn(current, segment)) return undefined;
      current = (current as Record<string, unknown>)[segment];
    } else {
      return undefined;
    }
  }
  return current;
}
