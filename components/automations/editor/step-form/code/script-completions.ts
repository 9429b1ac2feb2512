import { SCRIPT_ACTIONS } from "@/lib/automations/nodes/code/script-actions";
import { hasRecord } from "@/lib/automations/nodes/registry";
import type { TriggerDomain } from "@/lib/automations/nodes/types";
import { DOMAIN_LABELS, type Domain } from "@/lib/domains/domains";
import { domainFields } from "@/lib/domains/fields";
import { bringsCustomer, CUSTOMER_KEY } from "@/lib/domains/related";

/**
 * What the code step's editor completes after a dot, by what comes before it: `actions.` → the
 * script actions with their signatures, `event.` → what `eventView` gives a script, `entity.` →
 * the trigger's record fields (an order's `customer.` too), `steps.` → the steps before this one.
 * Pure and browser-safe; the CodeMirror source (`code-editor.tsx`) only looks the prefix up here.
 */

export interface ScriptCompletion {
  label: string;
  /** Shown beside the label: a signature or a type. */
  detail: string;
  /** A sentence about it, in the completion's info box. */
  info?: string;
  type: "function" | "property" | "variable";
}

/** By the object path before the dot (`entity`, `entity.customer`), and `""` for the globals. */
export type ScriptCompletions = Record<string, ScriptCompletion[]>;

const GLOBALS: ScriptCompletion[] = [
  { label: "event", detail: "the event", info: "What started the run: type, at, payload.", type: "variable" },
  {
    label: "entity",
    detail: "the record",
    info: "The record the run is about (read-only).",
    type: "variable",
  },
  { label: "steps", detail: "earlier steps", info: "What earlier steps returned or did.", type: "variable" },
  { label: "variables", detail: "object", info: "The run's variables (read-only).", type: "variable" },
  {
    label: "actions",
    detail: "tag, note, email…",
    info: "Asks for actions; they are taken after the script returns.",
    type: "variable",
  },
];

function eventFields(domain: TriggerDomain | null): ScriptCompletion[] {
  const fields: ScriptCompletion[] = [
    { label: "type", detail: "string", info: "The event's type, such as order.paid.", type: "property" },
    { label: "at", detail: "ISO date", info: "When it happened: the script's only clock.", type: "property" },
    {
      label: "payload",
      detail: "object",
      info: "What the event carries (from/to for a status change).",
      type: "property",
    },
    { label: "id", detail: "string", info: "The event's id.", type: "property" },
    { label: "domain", detail: "string", info: "The kind of record: order, customer…", type: "property" },
    { label: "entityId", detail: "string | null", info: "The record's id.", type: "property" },
  ];
  if (domain === "later")
    fields.push(
      { label: "then", detail: "object", info: "What actions.later handed back.", type: "property" },
      { label: "step", detail: "string", info: "The later step being run.", type: "property" },
      { label: "due", detail: "ISO date", info: "When the later step came due.", type: "property" },
    );
  return fields;
}

function recordFields(domain: Domain): ScriptCompletion[] {
  const one = DOMAIN_LABELS[domain].one;
  return domainFields(domain)
    .filter((field) => !field.path.includes("."))
    .map((field) => ({
      label: field.path,
      detail: field.options ? field.options.join(" | ") : field.type,
      info: `The ${one}'s ${field.path}.`,
      type: "property" as const,
    }));
}

export function scriptCompletions(
  domain: TriggerDomain | null,
  steps: readonly { id: string; label: string }[],
): ScriptCompletions {
  const completions: ScriptCompletions = {
    "": GLOBALS,
    actions: Object.entries(SCRIPT_ACTIONS).map(([name, spec]) => ({
      label: name,
      detail: spec.signature,
      info: spec.doc,
      type: "function" as const,
    })),
    event: eventFields(domain),
    steps: steps.map((step) => ({
      label: step.id,
      detail: "step",
      info: step.label,
      type: "property" as const,
    })),
  };
  if (hasRecord(domain)) {
    const fields = recordFields(domain);
    if (bringsCustomer(domain)) {
      fields.push({
        label: CUSTOMER_KEY,
        detail: "object | null",
        info: `The customer the ${DOMAIN_LABELS[domain].one} names, if any.`,
        type: "property",
      });
      completions[`entity.${CUSTOMER_KEY}`] = recordFields("customer");
    }
    completions.entity = fields;
  }
  return completions;
}

/**
 * The completions for the text just before the caret: `entity.to` → the entity's fields from `to`
 * on, `ac` → the globals. Null when nothing is known there (`foo.`), so other sources may answer.
 */
export function completionsAt(
  completions: ScriptCompletions,
  before: string,
): { from: number; options: ScriptCompletion[] } | null {
  const match = /(?:^|[^\w$.])((?:[A-Za-z_$][\w$]*\.)*)([\w$]*)$/.exec(before);
  if (!match) return null;
  const path = (match[1] ?? "").replace(/\.$/, "");
  const word = match[2] ?? "";
  const options = completions[path];
  if (!options || (path === "" && word === "")) return null;
  return { from: before.length - word.length, options };
}
