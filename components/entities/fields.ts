/**
 * Readers for an entity's stored `data`. Stored records outlive code, so pages read each field
 * defensively instead of trusting a shape: a missing or odd value shows as a dash, never a crash.
 */
export function readString(data: Record<string, unknown>, key: string): string | null {
  const value = data[key];
  return typeof value === "string" && value.length > 0 ? value : null;
}

export function readNumber(data: Record<string, unknown>, key: string): number | null {
  const value = data[key];
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

export function readBoolean(data: Record<string, unknown>, key: string): boolean | null {
  const value = data[key];
  return typeof value === "boolean" ? value : null;
}

export interface LineItem {
  sku: string;
  title: string;
  quantity: number;
  price: number;
}

export function readLineItems(data: Record<string, unknown>, key = "lineItems"): LineItem[] {
  const value = data[key];
  if (!Array.isArray(value)) return [];
  return value.flatMap((raw: unknown) => {
    if (!raw || typeof raw !== "object") return [];
    const item = raw as Record<string, unknown>;
    const sku = readString(item, "sku");
    const quantity = readNumber(item, "quantity");
    const price = readNumber(item, "price");
    if (!sku || quantity === null || price === null) return [];
    return [{ sku, title: readString(item, "title") ?? "", quantity, price }];
  });
}

/** The first value of a search param (Next gives string | string[] | undefined), trimmed; empty is undefined. */
export function firstParam(value: string | string[] | undefined): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  const trimmed = first?.trim();
  return trimmed ? trimmed : undefined;
}

/** A route param as text; a malformed percent-encoding is kept as it came rather than throwing. */
export function decodeParam(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
