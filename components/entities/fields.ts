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
  /** Who makes or sells it, and which variant: what a store sends besides the item itself. */
  vendor?: string;
  variantTitle?: string;
}

/** A plain object field (`shippingAddress`, `attributes`), or null. */
export function readObject(data: Record<string, unknown>, key: string): Record<string, unknown> | null {
  const value = data[key];
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/** A list of text (`discountCodes`), leaving out anything else. */
export function readStringList(data: Record<string, unknown>, key: string): string[] {
  const value = data[key];
  if (!Array.isArray(value)) return [];
  return value.filter((item): item is string => typeof item === "string" && item.trim() !== "");
}

export interface Address {
  name: string | null;
  city: string | null;
  province: string | null;
  country: string | null;
  countryCode: string | null;
  zip: string | null;
}

/** An order's shipping address, or null when it has none (or none of its parts). */
export function readAddress(data: Record<string, unknown>, key = "shippingAddress"): Address | null {
  const raw = readObject(data, key);
  if (!raw) return null;
  const address: Address = {
    name: readString(raw, "name"),
    city: readString(raw, "city"),
    province: readString(raw, "province"),
    country: readString(raw, "country"),
    countryCode: readString(raw, "countryCode"),
    zip: readString(raw, "zip"),
  };
  return Object.values(address).some((part) => part !== null) ? address : null;
}

/** Where an order goes, in a list's few words: "Berlin, DE"; null without a city or a country. */
export function shipsTo(data: Record<string, unknown>): string | null {
  const address = readAddress(data);
  if (!address) return null;
  const parts = [address.city, address.countryCode ?? address.country].filter((p): p is string => p !== null);
  return parts.length > 0 ? parts.join(", ") : null;
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
    const line: LineItem = { sku, title: readString(item, "title") ?? "", quantity, price };
    const vendor = readString(item, "vendor");
    const variantTitle = readString(item, "variantTitle");
    if (vendor) line.vendor = vendor;
    if (variantTitle) line.variantTitle = variantTitle;
    return [line];
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
