import { MAX_ATTRIBUTES_BYTES } from "@/lib/domains/domains";

/**
 * A record keeps at most `MAX_ATTRIBUTES_BYTES` of what its source sent besides its known fields.
 * A store's big order (hundreds of line items with their properties) is kept rather than refused:
 * its largest fields are left out, one at a time, until the rest fits, and the delivery says which.
 */
export function keepAttributes(attributes: Record<string, unknown>): {
  kept: Record<string, unknown>;
  leftOut: string[];
} {
  const sizes = new Map(
    Object.entries(attributes).map(([key, value]) => [key, Buffer.byteLength(JSON.stringify(value) ?? "")]),
  );
  const kept = { ...attributes };
  const leftOut: string[] = [];
  const largestFirst = [...sizes.entries()].sort((a, b) => b[1] - a[1]).map(([key]) => key);
  for (const key of largestFirst) {
    if (Buffer.byteLength(JSON.stringify(kept)) <= MAX_ATTRIBUTES_BYTES) break;
    delete kept[key];
    leftOut.push(key);
  }
  return { kept, leftOut };
}
