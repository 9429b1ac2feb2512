import { MAX_ATTRIBUTES_BYTES } from "@/lib/domains/domains";

/** Text JSON writes as it is, between quotes: printable ASCII but `"` and `\`. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/**
 * The bytes of `value` as JSON; undefined for what JSON leaves out, null for what it cannot write.
 * Short plain strings and numbers are counted without serialising them: a body of 60,000 small
 * fields is mostly those.
 */
function jsonSize(value: unknown): number | undefined | null {
  if (typeof value === "string" && value.length < 1_000 && PLAIN.test(value)) return value.length + 2;
  if (typeof value === "number" && Number.isFinite(value)) return String(value).length;
  try {
    const json = JSON.stringify(value) as string | undefined;
    return json === undefined ? undefined : Buffer.byteLength(json);
  } catch {
    // Nested deeper than the stack allows (a RangeError), a BigInt or a cycle: never storable.
    return null;
  }
}

/**
 * A record keeps at most `MAX_ATTRIBUTES_BYTES` of what its source sent besides its known fields.
 * A store's big order (hundreds of line items with their properties) is kept rather than refused:
 * its largest fields are left out, one at a time, until the rest fits, and the delivery says which.
 * A field that cannot be written as JSON at all (nested past the stack's depth) is left out first.
 *
 * Linear in the size of `attributes`: each field is measured once and the object's size is kept
 * as a running total while fields are left out. (Serialising the whole object again after each
 * field took 26 s of one worker's CPU for a 1 MB body of 10,000 fields.) `omit` names fields that
 * are not attributes at all (the known fields a mapper read), so a caller need not copy the rest
 * into an object of its own first.
 */
export function keepAttributes(
  attributes: Record<string, unknown>,
  omit: readonly string[] = [],
): { kept: Record<string, unknown>; leftOut: string[] } {
  const keys = Object.keys(attributes);
  const count = keys.length;
  const leftOut: string[] = [];
  // Per field: its value's bytes (what the largest-first order compares) and its entry's
  // (`"key":value`, 0 for a value JSON leaves out, which has no entry and no comma).
  const valueBytes = new Float64Array(count);
  const entryBytes = new Float64Array(count);
  const dropped = new Uint8Array(count);
  const sized: number[] = [];
  let entries = 0;
  let total = 0;
  for (let i = 0; i < count; i++) {
    const key = keys[i]!;
    if (omit.includes(key)) {
      dropped[i] = 1;
      continue;
    }
    const size = jsonSize(attributes[key]);
    if (size === null) {
      leftOut.push(key);
      dropped[i] = 1;
      continue;
    }
    if (size !== undefined) {
      entryBytes[i] = (jsonSize(key) ?? 0) + 1 + size;
      entries += 1;
      total += entryBytes[i]!;
    }
    valueBytes[i] = size ?? 0;
    sized.push(i);
  }
  // `{` + the entries joined by commas + `}`.
  const bytes = () => 2 + total + Math.max(0, entries - 1);
  if (bytes() > MAX_ATTRIBUTES_BYTES) {
    // Largest value first; equal sizes in the order the source sent them (a stable sort).
    sized.sort((a, b) => valueBytes[b]! - valueBytes[a]! || a - b);
    for (const i of sized) {
      if (bytes() <= MAX_ATTRIBUTES_BYTES) break;
      leftOut.push(keys[i]!);
      dropped[i] = 1;
      total -= entryBytes[i]!;
      if (entryBytes[i]! > 0) entries -= 1;
    }
  }
  // fromEntries defines each key as its own (a `__proto__` key stays a field, as JSON.parse made it).
  const kept: [string, unknown][] = [];
  for (let i = 0; i < count; i++) if (!dropped[i]) kept.push([keys[i]!, attributes[keys[i]!]]);
  return { kept: Object.fromEntries(kept), leftOut };
}
