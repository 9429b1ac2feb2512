import { formatExact } from "@/components/ui/format";
import { fieldLabel } from "@/lib/domains/labels";

/**
 * What a record's `attributes` (everything its store sent besides the known fields) look like on
 * its page: each top-level key in words ("Note attributes"), and its value as readable text where
 * it can be — a list as "a, b", name/value pairs as lines, a time in the shop's time zone — and as
 * indented JSON only when it is nested deeper than that. Pure.
 */

export type ShownAttribute =
  | { key: string; label: string; kind: "text"; text: string }
  | { key: string; label: string; kind: "pairs"; pairs: { name: string; value: string }[] }
  | { key: string; label: string; kind: "json"; json: string };

/** The most of one nested value shown as JSON. */
const JSON_CHARS = 4_000;

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/;

type Scalar = string | number | boolean | null;

function isScalar(value: unknown): value is Scalar {
  return value === null || ["string", "number", "boolean"].includes(typeof value);
}

function scalarText(value: Scalar, timeZone: string): string {
  if (value === null) return "—";
  if (typeof value === "boolean") return value ? "Yes" : "No";
  if (typeof value === "number") return String(value);
  const text = value.trim();
  if (text === "") return "—";
  if (ISO_TIME.test(text)) {
    const date = new Date(text);
    if (Number.isFinite(date.getTime())) return formatExact(date, timeZone);
  }
  return text;
}

/** `[{ name: "gift", value: "yes" }]` (a store's note attributes, a line's properties): name → value. */
function namedPairs(list: unknown[]): { name: string; value: string }[] | null {
  const pairs: { name: string; value: Scalar }[] = [];
  for (const item of list) {
    if (item === null || typeof item !== "object" || Array.isArray(item)) return null;
    const record = item as Record<string, unknown>;
    const name = record.name ?? record.key;
    if (typeof name !== "string" || !isScalar(record.value)) return null;
    pairs.push({ name, value: record.value });
  }
  return pairs.length > 0 ? pairs.map((p) => ({ name: p.name, value: String(p.value ?? "—") })) : null;
}

/** A store's key in words: `buyer_accepts_marketing` → "Buyer accepts marketing". */
function words(key: string): string {
  return fieldLabel(key.replace(/\./g, " "));
}

function shown(key: string, value: unknown, timeZone: string): ShownAttribute {
  const label = words(key);
  if (isScalar(value)) return { key, label, kind: "text", text: scalarText(value, timeZone) };
  if (Array.isArray(value)) {
    if (value.length === 0) return { key, label, kind: "text", text: "None" };
    if (value.every(isScalar))
      return { key, label, kind: "text", text: value.map((v) => scalarText(v, timeZone)).join(", ") };
    const pairs = namedPairs(value);
    if (pairs) return { key, label, kind: "pairs", pairs };
  } else if (value !== null && typeof value === "object") {
    const entries = Object.entries(value);
    if (entries.length === 0) return { key, label, kind: "text", text: "None" };
    if (entries.every(([, v]) => isScalar(v)))
      return {
        key,
        label,
        kind: "pairs",
        pairs: entries.map(([name, v]) => ({ name: words(name), value: scalarText(v as Scalar, timeZone) })),
      };
  }
  const json = JSON.stringify(value, null, 2) ?? "";
  return {
    key,
    label,
    kind: "json",
    json: json.length > JSON_CHARS ? `${json.slice(0, JSON_CHARS)}\n…` : json,
  };
}

/** The record's attributes as its page shows them, in the order the store sent them. */
export function shownAttributes(attributes: Record<string, unknown>, timeZone: string): ShownAttribute[] {
  return Object.entries(attributes).map(([key, value]) => shown(key, value, timeZone));
}
