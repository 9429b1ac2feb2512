import { checkTokens, type TokenCheckContext } from "@/lib/automations/review/tokens-check";
import type { DeclaredOutputs } from "@/lib/automations/review/step-outputs";
import type { TokenEscape } from "@/lib/automations/tokens/escape";
import { findTokens, renderTemplate, type TemplateContext } from "@/lib/automations/tokens/render";
import { hasRecord } from "@/lib/automations/nodes/registry";
import type { NodeDefinition, TriggerDomain } from "@/lib/automations/nodes/types";
import { DOMAIN_LABELS, type Domain } from "@/lib/domains/domains";
import { domainFields } from "@/lib/domains/fields";
import { bringsCustomer, CUSTOMER_KEY } from "@/lib/domains/related";

/**
 * What a templated field of the config panel says about its `{token}`s as the merchant types:
 * the problems `validate()` would report (the same sentences, from `checkTokens`), and a preview
 * of the text rendered (by the engine's own `renderTemplate`) on the dry run's record when there
 * is one, else on a neutral sample of the trigger's record, its values escaped as the field
 * escapes them when the step runs (a JSON body shows `"Ada Lovelace"`). Pure.
 */

/** The record the dry run was tried on, as its tokens read it, and the shop's time zone. */
export interface PreviewSource {
  timeZone: string;
  record: { domain: string; label: string; data: Record<string, unknown> } | null;
}

export interface FieldTemplating {
  check: TokenCheckContext;
  preview: TemplateContext;
  /** What the preview was rendered on: "a sample order", "Order #1001 · ada@example.com". */
  previewOf: string;
  /** How this field escapes its values (the node's `tokenEscapes`); absent: as they are. */
  escape?: TokenEscape;
}

/**
 * The templating of one field of a node: its escaping, from the node's params as they are now.
 * The preview shows what the receiver reads: a JSON body's quotes and a URL's %20 are theirs to
 * read, but an email's (or a Slack message's) reader sees "Ada & Co", not the `&amp;` it carries.
 */
export function forField(
  templating: FieldTemplating,
  definition: NodeDefinition,
  params: Readonly<Record<string, unknown>>,
  param: string,
): FieldTemplating {
  const escape = definition.tokenEscapes?.(params)[param];
  // What the reader sees: an email shows "Ada & Co", not its `&amp;`, and so does Slack.
  const shown = escape === "html" || escape === "mrkdwn" ? undefined : escape;
  return shown === templating.escape ? templating : { ...templating, escape: shown };
}

/** Values a sample record reads well with; other fields get a value of their type. */
const SAMPLE_VALUES: Record<string, unknown> = {
  id: "sample",
  number: "#1001",
  total: 65,
  amount: 65,
  price: 65,
  currency: "EUR",
  email: "ada@example.com",
  name: "Ada Lovelace",
  customerId: "sample-customer",
  orderId: "sample-order",
  tags: ["vip"],
  title: "Blue mug",
  inventory: 3,
  ordersCount: 2,
  totalSpent: 240,
  reason: "Arrived damaged",
  carrier: "DHL",
  tracking: "JD014600006101",
  lineItems: [{ sku: "MUG-1", title: "Blue mug", quantity: 1, price: 65 }],
  items: [{ sku: "MUG-1", quantity: 1, price: 65 }],
  shippingAddress: {
    name: "Ada Lovelace",
    city: "Berlin",
    province: "Berlin",
    country: "Germany",
    countryCode: "DE",
    zip: "10115",
  },
  discountCodes: ["WELCOME10"],
  sourceName: "web",
  phone: "+49 30 1234567",
  city: "Berlin",
  country: "Germany",
  attributes: {},
};

/** A neutral record of `domain`: every top-level field, with a value that reads like a real one. */
export function sampleRecord(domain: Domain, now: Date): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const field of domainFields(domain)) {
    if (field.path.includes(".")) continue;
    if (Object.hasOwn(SAMPLE_VALUES, field.path)) record[field.path] = SAMPLE_VALUES[field.path];
    else if (field.type === "enum") record[field.path] = field.options?.[0] ?? "";
    else if (field.type === "date") record[field.path] = now.toISOString();
    else if (field.type === "number") record[field.path] = 1;
    else if (field.type === "boolean") record[field.path] = true;
    else if (field.type === "array") record[field.path] = [];
    else if (field.type === "object") record[field.path] = {};
    else record[field.path] = field.path;
  }
  if (bringsCustomer(domain)) record[CUSTOMER_KEY] = sampleRecord("customer", now);
  return record;
}

/** How a field's tokens are checked and previewed in a flow started by a `domain` trigger. */
export function fieldTemplating(
  domain: TriggerDomain | null,
  upstreamNodeIds: ReadonlySet<string>,
  source: PreviewSource,
  now: Date = new Date(),
  upstreamOutputs?: ReadonlyMap<string, DeclaredOutputs>,
): FieldTemplating {
  const tried = source.record && source.record.domain === domain ? source.record : null;
  const entity = tried ? tried.data : hasRecord(domain) ? sampleRecord(domain, now) : null;
  return {
    check: { domain, upstreamNodeIds, ...(upstreamOutputs ? { upstreamOutputs } : {}) },
    preview: {
      entity,
      event: {},
      steps: {},
      variables: {},
      run: { id: "run_preview" },
      now,
      timeZone: source.timeZone,
    },
    previewOf: tried
      ? tried.label
      : hasRecord(domain)
        ? `a sample ${DOMAIN_LABELS[domain].one}`
        : "an empty record",
  };
}

/** The problems of a field's text (one sentence each, as `validate` words them), and its preview. */
export function templatedText(
  text: string,
  templating: FieldTemplating,
): { problem: string | undefined; preview: string | null } {
  if (findTokens(text).length === 0) return { problem: undefined, preview: null };
  const problems = checkTokens(text, templating.check);
  return {
    problem: problems.length > 0 ? problems.join(" ") : undefined,
    preview: renderTemplate(text, templating.preview, { escape: templating.escape }),
  };
}
