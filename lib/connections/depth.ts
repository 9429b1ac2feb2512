/**
 * The deepest a store's delivery may nest objects and lists. Shopify's and WooCommerce's payloads
 * nest fewer than ten levels (an order's line item's tax line's price set's amount is six). A body
 * nested thousands of levels deep parses, but writing it back out (JSON.stringify, structuredClone,
 * PostgreSQL's jsonb) recurses once per level and runs out of stack: past about 4,000 levels in
 * Node, past about 20,000 in PostgreSQL ("stack depth limit exceeded"). Refusing such a body at the
 * door keeps every later step — the mapper, the 64 KB attributes, the record's writes, conditions
 * and templates reading it — within a depth they can always walk.
 */
export const MAX_DELIVERY_DEPTH = 100;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_LIST = 0x5b;
const CLOSE_LIST = 0x5d;

/**
 * Whether the JSON text `raw` nests objects and lists more than `limit` levels deep. One pass over
 * the bytes with no recursion, stopping at the first level past the limit: a 2 MB body costs a few
 * milliseconds whatever its shape, and one refused is never parsed. Brackets inside strings do not
 * count; UTF-8's multi-byte characters never contain these ASCII bytes. Not a validator: text that
 * is not JSON is counted all the same (the caller parses what passes).
 */
export function nestsDeeperThan(raw: Uint8Array, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const byte = raw[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) inString = true;
    else if (byte === OPEN_OBJECT || byte === OPEN_LIST) {
      depth++;
      if (depth > limit) return true;
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_LIST) depth--;
  }
  return false;
}
