import { upstreamOf } from "@/lib/automations/graph/reachability";
import type { Graph } from "@/lib/automations/graph/schema";
import { hasRecord, summariseNode } from "@/lib/automations/nodes/registry";
import type { TriggerDomain } from "@/lib/automations/nodes/types";
import { DOMAIN_LABELS, type Domain } from "@/lib/domains/domains";
import { domainFields, type FieldInfo } from "@/lib/domains/fields";
import { bringsCustomer, CUSTOMER_KEY } from "@/lib/domains/related";
import { declaredOutputs, type DeclaredOutputs } from "./step-outputs";

/**
 * The `{token}`s the token picker offers a step, for the trigger's domain and the other steps of
 * the flow (SPEC §2 "Templating"; syntax in `lib/automations/tokens/render.ts`). Pure.
 *
 * A token that needs a path the editor cannot know (a field of a webhook's payload, an earlier
 * step's output) is inserted open, as `{steps.abc.}`, with the caret before the closing brace so
 * the merchant types the rest; until they do, validation says the token is incomplete.
 */

export type TokenGroup = "Record" | "Customer" | "Event" | "Run" | "Steps";

export interface TokenOption {
  /** The text inserted: `{entity.email}`. */
  token: string;
  /** What the option reads as: `email`. */
  label: string;
  /** A short note beside it: the field's type, what the value is. */
  hint: string;
  group: TokenGroup;
  /** Where the caret goes within `token` once inserted; the end when absent. */
  caret?: number;
}

/** An open token: the caret lands before its closing brace. */
function open(prefix: string, label: string, hint: string, group: TokenGroup): TokenOption {
  const token = `{${prefix}.}`;
  return { token, label, hint, group, caret: token.length - 1 };
}

/** What the event carries besides its type, for each domain whose runs have no record. */
function eventTokens(domain: TriggerDomain | null): TokenOption[] {
  const tokens: TokenOption[] = [
    { token: "{event.type}", label: "event.type", hint: "what started the run", group: "Event" },
    { token: "{event.occurredAt}", label: "event.occurredAt", hint: "when it happened", group: "Event" },
  ];
  switch (domain) {
    case "webhook":
      tokens.push(open("event.payload", "event.payload.…", "a field of the posted JSON", "Event"));
      break;
    case "later":
      tokens.push(
        { token: "{event.step}", label: "event.step", hint: "the later step", group: "Event" },
        { token: "{event.due}", label: "event.due", hint: "when it came due", group: "Event" },
        open("event.then", "event.then.…", "a value handed back", "Event"),
      );
      break;
    default:
      break;
  }
  return tokens;
}

/** Amounts a merchant wants written as money: `{entity.total | money}` → "€65.00". */
const MONEY_FIELDS = new Set(["total", "amount", "totalSpent", "price"]);

/**
 * The top-level fields of a `domain` record as tokens under `prefix` (`entity`, `entity.customer`),
 * each money amount and date also offered through its filter.
 */
function fieldTokens(domain: Domain, prefix: string, group: TokenGroup): TokenOption[] {
  const options: TokenOption[] = [];
  const hint = (field: FieldInfo) => `${DOMAIN_LABELS[domain].one} · ${field.type}`;
  const fields = domainFields(domain);
  const objects = new Set(fields.filter((f) => f.type === "object" && !f.open).map((f) => f.path));
  // Top-level fields, and those of a top-level object (`shippingAddress.city`): a list's items
  // (`{entity.lineItems.0.sku}`) are better typed than picked from a long list.
  const offered = fields.filter((f) => {
    const dot = f.path.indexOf(".");
    return dot < 0
      ? !objects.has(f.path)
      : objects.has(f.path.slice(0, dot)) && !f.path.includes(".", dot + 1);
  });
  for (const field of offered) {
    const path = `${prefix}.${field.path}`;
    if (field.open) {
      // What the store sent besides the known fields: finished by typing the store's own name.
      options.push(open(path, `${path.replace(/^entity\./, "")}.…`, "anything else the store sent", group));
      continue;
    }
    const label = path.replace(/^entity\./, "");
    options.push({ token: `{${path}}`, label, hint: hint(field), group });
    if (field.type === "number" && MONEY_FIELDS.has(field.path))
      options.push({
        token: `{${path} | money}`,
        label: `${label} | money`,
        hint: "as money: €65.00",
        group,
      });
    if (field.type === "date")
      options.push({
        token: `{${path} | date}`,
        label: `${label} | date`,
        hint: "as a day: Nov 30, 2026",
        group,
      });
  }
  return options;
}

/** An earlier step, as the picker offers it: its id, its summary and what it declares it hands on. */
export interface EarlierStep {
  id: string;
  label: string;
  outputs?: DeclaredOutputs;
}

/**
 * An earlier step's tokens: each output it declares, by its label (`{steps.h.status}` "the
 * answer's status code"; a path ending `.*` as an open token, `{steps.h.body.}`), or — for a
 * kind of step that declares nothing — one open token under it.
 */
function stepTokens(step: EarlierStep): TokenOption[] {
  const prefix = `steps.${step.id}`;
  if (step.outputs === undefined) return [open(prefix, `${prefix}.…`, step.label, "Steps")];
  return step.outputs.map(({ path, label }) => {
    if (path === "*") return open(prefix, `${prefix}.…`, label, "Steps");
    if (path.endsWith(".*")) {
      const base = `${prefix}.${path.slice(0, -2)}`;
      return open(base, `${base}.…`, label, "Steps");
    }
    return { token: `{${prefix}.${path}}`, label: `${prefix}.${path}`, hint: label, group: "Steps" };
  });
}

export function tokensFor(domain: TriggerDomain | null, steps: readonly EarlierStep[]): TokenOption[] {
  const record: TokenOption[] = hasRecord(domain)
    ? [
        ...fieldTokens(domain, "entity", "Record"),
        ...(bringsCustomer(domain) ? fieldTokens("customer", `entity.${CUSTOMER_KEY}`, "Customer") : []),
      ]
    : [];
  const run: TokenOption[] = [
    { token: "{run.id}", label: "run.id", hint: "this run's id", group: "Run" },
    { token: "{now}", label: "now", hint: "when the step runs", group: "Run" },
    { token: "{now | date}", label: "now | date", hint: "today, in the shop's time zone", group: "Run" },
  ];
  const earlier = steps
    // Only an id made of letters, digits and underscores can be read back as a token.
    .filter((step) => /^\w+$/.test(step.id))
    .flatMap(stepTokens);
  return [...record, ...eventTokens(domain), ...run, ...earlier];
}

/** Options in the order shown, with the group each starts (for the listbox's group headings). */
export function groupTokens(tokens: readonly TokenOption[]): { group: TokenGroup; tokens: TokenOption[] }[] {
  const groups: { group: TokenGroup; tokens: TokenOption[] }[] = [];
  for (const token of tokens) {
    const last = groups.at(-1);
    if (last && last.group === token.group) last.tokens.push(token);
    else groups.push({ group: token.group, tokens: [token] });
  }
  return groups;
}

/**
 * `text` with `insert` put in place of the selection `[start, end)` (the caret when they are
 * equal), and where the caret goes after it. Offsets out of range are clamped, so a stale
 * selection never throws.
 */
export function insertAt(
  text: string,
  start: number | null,
  end: number | null,
  insert: string,
  caretInInsert: number = insert.length,
): { text: string; caret: number } {
  const from = Math.min(Math.max(start ?? text.length, 0), text.length);
  const to = Math.min(Math.max(end ?? from, from), text.length);
  return { text: text.slice(0, from) + insert + text.slice(to), caret: from + caretInInsert };
}

/**
 * The steps that can run before `nodeId` (those `{steps.<id>.…}` may name, as validation checks),
 * with the summary the picker shows beside each and what each declares it hands on.
 */
export function stepsBefore(graph: Graph, nodeId: string): EarlierStep[] {
  const upstream = upstreamOf(graph, nodeId);
  return graph.nodes
    .filter((node) => node.id !== nodeId && upstream.has(node.id))
    .map((node) => ({ id: node.id, label: summariseNode(node), outputs: declaredOutputs(node) }));
}
