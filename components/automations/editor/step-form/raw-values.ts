import type { ParamField } from "@/lib/automations/editor/param-form";

/**
 * The inverse of `coerceField`: what a generic form input shows for a stored param value. Pure.
 * The form keeps these raw inputs in local state, so a half-typed number or JSON object survives
 * while `coerceField` turns each keystroke into the value saved.
 */
export type RawValue = string | boolean | string[];

function json(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? "";
  } catch {
    return "";
  }
}

export function rawFromValue(field: ParamField, value: unknown): RawValue {
  if (field.kind === "boolean") return value === true;
  if (value === undefined || value === null) return field.kind === "list" && field.options ? [] : "";
  switch (field.kind) {
    case "list": {
      const items = Array.isArray(value) ? value.map(String) : [String(value)];
      // A list with options is a set of checkboxes; one without is typed, comma-separated.
      return field.options ? items : items.join(", ");
    }
    case "record":
      return typeof value === "object" && !Array.isArray(value)
        ? Object.entries(value as Record<string, unknown>)
            .map(([name, item]) => `${name}: ${typeof item === "string" ? item : json(item)}`)
            .join("\n")
        : json(value);
    case "json":
      return json(value);
    default:
      return typeof value === "string" || typeof value === "number" ? String(value) : json(value);
  }
}

/** `params` with `name` set to `value`, or without it when `value` is undefined (left out). */
export function withParam(
  params: Readonly<Record<string, unknown>>,
  name: string,
  value: unknown,
): Record<string, unknown> {
  const next: Record<string, unknown> = { ...params };
  if (value === undefined) delete next[name];
  else next[name] = value;
  return next;
}
