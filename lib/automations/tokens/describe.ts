import { DOMAIN_LABELS, isDomain } from "@/lib/domains/domains";
import { fieldLabel, inSentence } from "@/lib/domains/labels";
import { formatDay } from "./filters";
import { findTokens, renderToken, type FoundToken, type TemplateContext } from "./render";

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** A filled-in value as a merchant reads it: a bare ISO time (no `| date`) as its day in the shop's zone. */
function readable(value: string, timeZone: string | undefined): string {
  return ISO_TIME.test(value) && !Number.isNaN(Date.parse(value))
    ? formatDay(new Date(value), timeZone)
    : value;
}

/**
 * `{token}`s in words a merchant reads, for the texts that show a step (its summary on the canvas,
 * in the run's timeline, the Waiting list, the dashboard): filled in from the run's record where
 * there is one ("Your order #1022 is running late"), else described ("the order's number").
 * Pure and browser-safe.
 */

export interface TokenWords {
  /** The kind of record the flow's runs are about (`order`), for "the order's number". */
  domain?: string | null;
  /** The run's values, when the text is about one run: tokens are filled in from them. */
  values?: TemplateContext | null;
}

/** Fields whose label is not a noun ("Created"), as a possessive names them: "the order's creation date". */
const NOUNS: Record<string, string> = {
  createdAt: "creation date",
  updatedAt: "last update",
  dueAt: "due date",
};

/** A field path after a possessive: "number", "first line item › SKU", "creation date". */
function field(path: string): string {
  return Object.hasOwn(NOUNS, path) ? NOUNS[path]! : inSentence(fieldLabel(path));
}

/** "the order's", "the record's". */
function whose(domain: string | null | undefined): string {
  return `the ${domain && isDomain(domain) ? DOMAIN_LABELS[domain].one : "record"}'s`;
}

/** What a token stands for, in words: `{entity.lineItems.0.sku}` → "the order's first line item › SKU". */
export function describeToken(token: Pick<FoundToken, "root" | "path">, domain?: string | null): string {
  const path = token.path.join(".");
  switch (token.root) {
    case "entity": {
      // An order's customer: {entity.customer.name} → "the customer's name".
      if (token.path[0] === "customer" && token.path.length > 1 && domain !== "customer")
        return `the customer's ${field(token.path.slice(1).join("."))}`;
      return path ? `${whose(domain)} ${field(path)}` : `the ${whose(domain).slice(4, -2)}`;
    }
    case "event":
      if (token.path[0] === "then" && token.path.length > 1)
        return `the handed-back ${field(token.path.slice(1).join("."))}`;
      return path ? `the event's ${field(path)}` : "the event";
    case "steps": {
      const [step, ...rest] = token.path;
      const of = step ? `step '${step}'` : "an earlier step";
      return rest.length > 0 ? `the ${field(rest.join("."))} from ${of}` : `what ${of} returned`;
    }
    case "variables":
      return path ? `the variable '${path}'` : "the run's variables";
    case "run":
      return "the run's ID";
    case "now":
      return "the time the step runs";
    default:
      return `'${[token.root, ...token.path].join(".")}'`;
  }
}

/**
 * `text` with each token filled in from `words.values` (when that gives it a value) or described.
 * A token that is the whole text reads as a phrase ("the order's email"); one inside a sentence
 * is bracketed so the sentence still reads ("Your order [the order's number] is late").
 */
export function describeTokens(text: string, words: TokenWords = {}): string {
  const tokens = findTokens(text);
  if (tokens.length === 0) return text;
  const whole = tokens.length === 1 && text.trim() === tokens[0]!.token;
  let out = "";
  let last = 0;
  for (const token of tokens) {
    const value = words.values ? readable(renderToken(token, words.values), words.values.timeZone) : "";
    const words_ = value !== "" ? value : describeToken(token, words.domain);
    out += text.slice(last, token.start) + (value !== "" || whole ? words_ : `[${words_}]`);
    last = token.end;
  }
  return out + text.slice(last);
}
