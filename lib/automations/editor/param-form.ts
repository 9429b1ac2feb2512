import { z } from "zod";
import { OPERATOR_PHRASES } from "@/lib/automations/nodes/conditions/field";
import { WEEKDAY_NAMES } from "@/lib/automations/nodes/timing/wait-until";
import type { NodeDefinition } from "@/lib/automations/nodes/types";
import { PURPOSE_LABELS } from "@/lib/consent/purpose";
import { HOLD_REASONS } from "@/lib/automations/nodes/store/store";

/**
 * A node's params schema read as form fields, so every node type gets a usable settings form
 * without one written for it. Pure and browser-safe. The zod schema stays the judge: the form
 * turns inputs into values (`coerceField`) and shows the schema's own messages (`paramErrors`).
 *
 * Kinds: `text` one line · `textarea` long text (a body) · `number` · `select` an enum · `boolean`
 * · `list` of short values · `record` name → text pairs (HTTP headers) · `json` anything nested.
 */

export type ParamFieldKind =
  "text" | "textarea" | "number" | "select" | "boolean" | "list" | "json" | "record";

export interface ParamField {
  name: string;
  label: string;
  kind: ParamFieldKind;
  /** The param must be given: it is neither optional nor defaulted. */
  required: boolean;
  options?: { value: string; label: string }[];
  /** The param accepts `{token}`s. */
  templated: boolean;
  min?: number;
  max?: number;
  placeholder?: string;
  help?: string;
  /** For a `list`: whether its items are numbers (weekdays) or text (tags). */
  itemKind?: "text" | "number";
}

/** Text longer than this is a body, edited in a textarea. */
const LONG_TEXT = 2000;

/** Labels people read; any param not named here is its name in sentence case. */
const LABELS: Record<string, string> = {
  duration: "Duration",
  unit: "Unit",
  time: "Time of day",
  timezone: "Time zone",
  weekdays: "Days of the week",
  dueIn: "Due in",
  assignee: "Assign to",
  timeoutMs: "Timeout (ms)",
  url: "URL",
  method: "Method",
  headers: "Headers",
  body: "Body",
  to: "To",
  subject: "Subject",
  tag: "Tag",
  title: "Title",
  path: "Field",
  operator: "Comparison",
  value: "Value",
  when: "When",
  step: "Step name",
  key: "Replace key",
  then: "Hand back (JSON)",
  cron: "Schedule (cron)",
  audience: "Audience",
  threshold: "Threshold",
  from: "From status",
  token: "URL token",
  secret: "Signing secret",
  purpose: "Purpose",
};

/** A param's label: the step's own (`paramLabels` on its definition), else the shared one. */
function labelOf(definition: NodeDefinition, name: string): string {
  return definition.paramLabels?.[name] ?? LABELS[name] ?? humanize(name);
}

const PLACEHOLDERS: Record<string, string> = {
  tag: "vip",
  url: "https://example.com/hooks/orders",
  dueIn: "2d",
  when: "3d",
  time: "09:00",
  timezone: "Europe/Paris",
  cron: "0 9 * * 1",
  assignee: "ops@example.com",
  path: "total",
  step: "follow-up",
  text: "Order {entity.number} was paid: *{entity.total | money}*",
};

const HELP: Record<string, string> = {
  dueIn: "A duration such as 30m, 2h or 3d.",
  when: "A duration such as 30m, 2h or 3d, or a time such as 2026-12-24T09:00:00+01:00.",
  key: "A later step waiting under the same key is replaced by this one.",
  then: "JSON handed to the run this starts, as {event.then.…}.",
  headers: "One header a line, as Name: value.",
  cron: "Five fields: minute hour day month weekday.",
  timeoutMs: "How long to wait for an answer, 1,000 to 30,000 ms.",
  weekdays: "Leave empty for any day.",
  secret: "With a secret, only requests signed with it (HMAC) are accepted.",
  timeoutHours: "1 to 720 hours (30 days). Nobody decided by then: the flow follows 'Timed out'.",
  approverRole: "They get an email and decide in the Approvals inbox or on the run's page.",
  remindAfterHours:
    "Nobody decided by then: the approvers get one reminder by email. Less than the time-out.",
  escalateAfterHours:
    "Still nobody decided by then: the shop's admins get one email. After the reminder, before the time-out.",
};

/** Option labels where the value alone reads badly. */
const OPTION_LABELS: Record<string, Record<string, string>> = {
  operator: OPERATOR_PHRASES,
  approverRole: { editor: "Editors and admins", admin: "Admins only" },
  task: { classify: "Sort into categories", extract: "Pull out fields", write: "Write a short text" },
  purpose: PURPOSE_LABELS,
  reason: HOLD_REASONS,
  target: { order: "The order", customer: "The order's customer (or the customer)" },
};

/** "dueIn" → "Due in", "min_total" → "Min total". */
export function humanize(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_.-]+/g, " ")
    .trim()
    .toLowerCase();
  return words ? words[0]!.toUpperCase() + words.slice(1) : name;
}

function optionLabel(param: string, value: string): string {
  const special = OPTION_LABELS[param]?.[value];
  if (special) return special;
  // GET, POST: codes are shown as they are written.
  return value === value.toUpperCase() ? value : humanize(value);
}

interface Unwrapped {
  schema: z.ZodType;
  optional: boolean;
  defaulted: boolean;
}

/** The schema under optional / default / nullable wrappers, and whether the param may be left out. */
function unwrap(schema: z.ZodType): Unwrapped {
  let current = schema;
  let optional = false;
  let defaulted = false;
  for (;;) {
    if (current instanceof z.ZodOptional || current instanceof z.ZodNullable) optional = true;
    else if (current instanceof z.ZodDefault || current instanceof z.ZodPrefault) defaulted = true;
    else break;
    current = current.unwrap() as z.ZodType;
  }
  return { schema: current, optional, defaulted };
}

function isTextSchema(schema: z.ZodType): boolean {
  return schema instanceof z.ZodString || schema instanceof z.ZodStringFormat;
}

function finite(value: number | null | undefined): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** The kind of field a schema is edited with, and its limits. */
function kindOf(
  name: string,
  schema: z.ZodType,
): Pick<ParamField, "kind" | "options" | "min" | "max" | "itemKind"> {
  if (isTextSchema(schema)) {
    const max = finite((schema as z.ZodString).maxLength);
    return { kind: name === "body" || (max !== undefined && max > LONG_TEXT) ? "textarea" : "text", max };
  }
  if (schema instanceof z.ZodNumber) {
    return { kind: "number", min: finite(schema.minValue), max: finite(schema.maxValue) };
  }
  if (schema instanceof z.ZodBoolean) return { kind: "boolean" };
  if (schema instanceof z.ZodEnum) {
    const values = schema.options.map(String);
    return { kind: "select", options: values.map((value) => ({ value, label: optionLabel(name, value) })) };
  }
  if (schema instanceof z.ZodArray) {
    const item = unwrap(schema.element as z.ZodType).schema;
    if (isTextSchema(item)) return { kind: "list", itemKind: "text" };
    if (item instanceof z.ZodNumber) {
      return {
        kind: "list",
        itemKind: "number",
        // Weekdays: the numbers mean days, so they get names to pick from.
        ...(name === "weekdays"
          ? {
              options: Object.entries(WEEKDAY_NAMES).map(([value, label]) => ({ value, label })),
            }
          : {}),
      };
    }
    return { kind: "json" };
  }
  if (schema instanceof z.ZodRecord) {
    return { kind: isTextSchema(unwrap(schema.valueType as z.ZodType).schema) ? "record" : "json" };
  }
  // A value that may be text or a number or a list (a field condition's value): typed as text,
  // which the comparison reads forgivingly ("100" equals 100, "a, b" is a list for `in`).
  if (schema instanceof z.ZodUnion) {
    return { kind: (schema.options as z.ZodType[]).some(isTextSchema) ? "text" : "json" };
  }
  return { kind: "json" };
}

/** The shape of a params schema: `paramsObject` returns an object schema, refinements included. */
function shapeOf(definition: NodeDefinition): Record<string, z.ZodType> {
  const schema = unwrap(definition.params).schema;
  return schema instanceof z.ZodObject ? (schema.shape as Record<string, z.ZodType>) : {};
}

function placeholderFor(name: string, defaults: Record<string, unknown>): string | undefined {
  if (PLACEHOLDERS[name]) return PLACEHOLDERS[name];
  const value = defaults[name];
  return typeof value === "string" && value !== ""
    ? value
    : typeof value === "number"
      ? String(value)
      : undefined;
}

/** The form fields of a node's params, in the schema's order. Never throws. */
export function paramFields(definition: NodeDefinition): ParamField[] {
  let defaults: Record<string, unknown> = {};
  try {
    const made: unknown = definition.defaultParams();
    if (typeof made === "object" && made !== null) defaults = made as Record<string, unknown>;
  } catch {
    // A default that cannot be made only costs the placeholders.
  }
  const templated = new Set(definition.templated ?? []);
  return Object.entries(shapeOf(definition)).map(([name, child]) => {
    const { schema, optional, defaulted } = unwrap(child);
    const field: ParamField = {
      name,
      label: labelOf(definition, name),
      ...kindOf(name, schema),
      required: !optional && !defaulted,
      templated: templated.has(name),
    };
    const placeholder = placeholderFor(name, defaults);
    if (placeholder !== undefined) field.placeholder = placeholder;
    const help =
      definition.paramHelp?.[name] ??
      HELP[name] ??
      (field.templated ? "Insert token adds a value of the record, such as its email." : undefined);
    if (help !== undefined) field.help = help;
    return field;
  });
}

function sentence(text: string): string {
  return /[.!?…]$/.test(text) ? text : `${text}.`;
}

/** zod's own wording for a wrong type or an unknown key, said plainly (the schemas' own messages pass through). */
function plain(issue: z.core.$ZodIssue): string {
  if (issue.code === "invalid_type" && /^Invalid input/.test(issue.message)) {
    return /received undefined$/.test(issue.message) ? "is required" : "has the wrong kind of value";
  }
  if (issue.code === "unrecognized_keys" && /^Unrecognized key/.test(issue.message)) {
    return `${issue.keys.map((key) => `'${key}'`).join(", ")} ${issue.keys.length === 1 ? "is not a setting" : "are not settings"} of this step`;
  }
  return issue.message;
}

/**
 * What is wrong with `params`, for a form: the first message per top-level param, as a sentence
 * that names the field ("Tag cannot be empty."), and under `""` what concerns the whole step
 * (unknown settings, and the checks beyond the schema such as "A wait can be at most 30 days.").
 * `{}` means the params are fine.
 */
export function paramErrors(definition: NodeDefinition, params: unknown): Record<string, string> {
  const errors: Record<string, string> = {};
  const shape = shapeOf(definition);
  const result = definition.params.safeParse(params);
  if (!result.success) {
    for (const issue of result.error.issues) {
      const [head, ...rest] = issue.path.map(String);
      const key = head !== undefined && Object.hasOwn(shape, head) ? head : "";
      if (Object.hasOwn(errors, key)) continue;
      const message = plain(issue);
      if (key === "") {
        errors[key] = sentence(message.charAt(0).toUpperCase() + message.slice(1));
        continue;
      }
      const label = labelOf(definition, key);
      errors[key] = sentence(
        rest.length > 0 ? `${label} (${rest.join(".")}) ${message}` : `${label} ${message}`,
      );
    }
    return errors;
  }
  const more = definition.check?.(result.data) ?? [];
  if (more.length > 0) errors[""] = more.join(" ");
  return errors;
}

function parseNumber(text: string): number | string {
  const trimmed = text.trim();
  const value = Number(trimmed);
  // Returned as typed when it is not a number, so the schema's "must be a number" shows.
  return trimmed !== "" && Number.isFinite(value) ? value : text;
}

function listItems(raw: string | boolean | string[]): string[] {
  const items = Array.isArray(raw) ? raw : typeof raw === "string" ? raw.split(/[,\n]/) : [];
  return items.map((item) => item.trim()).filter((item) => item !== "");
}

/** "Name: value" lines (or a JSON object) → a record of text; unreadable input comes back as typed. */
function parseRecord(raw: string | string[]): Record<string, string> | string {
  const text = Array.isArray(raw) ? raw.join("\n") : raw;
  if (text.trim().startsWith("{")) {
    const parsed = parseJson(text);
    return parsed;
  }
  const record: Record<string, string> = {};
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    const colon = line.indexOf(":");
    if (colon <= 0) return text;
    record[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return record;
}

function parseJson(text: string): Record<string, string> | string {
  try {
    return JSON.parse(text) as Record<string, string>;
  } catch {
    return text;
  }
}

/**
 * A form input as a param value: "" is `undefined` for a param that may be left out, numbers are
 * parsed, lists split on commas or lines, JSON parsed. Input that cannot be read comes back as it
 * was typed, so `paramErrors` shows what is wrong with it instead of it silently vanishing.
 */
export function coerceField(field: ParamField, raw: string | boolean | string[]): unknown {
  if (field.kind === "boolean") return typeof raw === "boolean" ? raw : raw === "true";
  if (field.kind === "list") {
    const items = listItems(raw);
    if (items.length === 0) return field.required ? [] : undefined;
    return field.itemKind === "number" ? items.map(parseNumber) : items;
  }
  if (typeof raw === "boolean") return raw;
  const text = Array.isArray(raw) ? raw.join("\n") : raw;
  if (text.trim() === "") {
    // A required text param keeps "" so its message ("cannot be empty") shows; a number is missing.
    return field.required && (field.kind === "text" || field.kind === "textarea") ? "" : undefined;
  }
  switch (field.kind) {
    case "number":
      return parseNumber(text);
    case "json":
      return parseJson(text);
    case "record":
      return parseRecord(raw as string | string[]);
    default:
      return text;
  }
}
