import { audienceSchema, type Audience } from "@/lib/automations/nodes/triggers/triggers";

/**
 * The schedule trigger's audience as a form: one input per field the engine filters on
 * (`audience.ts`), labelled in the merchant's words, and the `audience` JSON those inputs make.
 * Pure and browser-safe; the JSON is checked by the node's own `audienceSchema`, so the form can
 * never produce something the engine reads differently.
 */

export type AudienceField = keyof Audience;

/** What the inputs hold, as typed. */
export interface AudienceDraft {
  /** "any": not filtered; "yes" / "no": `acceptsMarketing` true / false. */
  acceptsMarketing: "any" | "yes" | "no";
  minOrdersCount: string;
  minTotalSpent: string;
  /** Comma-separated tags. */
  tagsInclude: string;
  tagsExclude: string;
  createdWithinDays: string;
}

export interface AudienceFieldInfo {
  field: AudienceField;
  label: string;
  hint: string;
  input: "yes-no" | "whole-number" | "amount" | "tags";
}

/** Every field an audience can filter on, in the order the form shows them. */
export const AUDIENCE_FIELDS: readonly AudienceFieldInfo[] = [
  {
    field: "acceptsMarketing",
    label: "Accepts marketing",
    hint: "Whether the customer agreed to receive marketing.",
    input: "yes-no",
  },
  {
    field: "minOrdersCount",
    label: "Orders",
    hint: "At least this many orders. Leave empty for any number.",
    input: "whole-number",
  },
  {
    field: "minTotalSpent",
    label: "Total spent",
    hint: "At least this much spent in the shop, in its currency. Leave empty for any amount.",
    input: "amount",
  },
  {
    field: "tagsInclude",
    label: "Has any of these tags",
    hint: "Separate tags with commas. Leave empty for any tags.",
    input: "tags",
  },
  {
    field: "tagsExclude",
    label: "Has none of these tags",
    hint: "Separate tags with commas.",
    input: "tags",
  },
  {
    field: "createdWithinDays",
    label: "Customer since (days)",
    hint: "Became a customer within this many days of each fire. Leave empty for any time.",
    input: "whole-number",
  },
];

export const EMPTY_AUDIENCE_DRAFT: AudienceDraft = {
  acceptsMarketing: "any",
  minOrdersCount: "",
  minTotalSpent: "",
  tagsInclude: "",
  tagsExclude: "",
  createdWithinDays: "",
};

/** The inputs for a stored audience (anything not an object reads as empty). */
export function draftFromAudience(value: unknown): AudienceDraft {
  const parsed = audienceSchema.safeParse(value);
  if (!parsed.success) return EMPTY_AUDIENCE_DRAFT;
  const audience = parsed.data;
  const number = (n: number | undefined) => (n === undefined ? "" : String(n));
  return {
    acceptsMarketing:
      audience.acceptsMarketing === undefined ? "any" : audience.acceptsMarketing ? "yes" : "no",
    minOrdersCount: number(audience.minOrdersCount),
    minTotalSpent: number(audience.minTotalSpent),
    tagsInclude: (audience.tagsInclude ?? []).join(", "),
    tagsExclude: (audience.tagsExclude ?? []).join(", "),
    createdWithinDays: number(audience.createdWithinDays),
  };
}

function tags(text: string): string[] | undefined {
  const list = [
    ...new Set(
      text
        .split(",")
        .map((tag) => tag.trim())
        .filter(Boolean),
    ),
  ];
  return list.length ? list : undefined;
}

/** A typed number, or the text itself when it is not one (so the schema names the problem). */
function numeric(text: string): number | string | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : trimmed;
}

/**
 * The `audience` JSON of the inputs (`json`, what the params store: a wrong value is kept so the
 * step's own checks report it and it cannot be published), the part of it that is valid
 * (`audience`) and a sentence per field that is wrong ("must be a whole number"). Empty inputs
 * are left out, so an empty form is `{}`: every customer.
 */
export function audienceFromDraft(draft: AudienceDraft): {
  json: Record<string, unknown>;
  audience: Audience;
  errors: Partial<Record<AudienceField, string>>;
} {
  const candidate: Record<string, unknown> = {
    tagsInclude: tags(draft.tagsInclude),
    tagsExclude: tags(draft.tagsExclude),
    acceptsMarketing: draft.acceptsMarketing === "any" ? undefined : draft.acceptsMarketing === "yes",
    minTotalSpent: numeric(draft.minTotalSpent),
    minOrdersCount: numeric(draft.minOrdersCount),
    createdWithinDays: numeric(draft.createdWithinDays),
  };
  const present = Object.fromEntries(Object.entries(candidate).filter(([, value]) => value !== undefined));
  const parsed = audienceSchema.safeParse(present);
  if (parsed.success) return { json: parsed.data, audience: parsed.data, errors: {} };
  const errors: Partial<Record<AudienceField, string>> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as AudienceField | undefined;
    if (field && !errors[field]) errors[field] = issue.message;
  }
  const valid = Object.fromEntries(Object.entries(present).filter(([key]) => !(key in errors)));
  return { json: present, audience: audienceSchema.parse(valid), errors };
}

/** The audience in words, for the form's summary: "Customers who accept marketing, with at least 2 orders". */
export function describeAudience(audience: Audience): string {
  const parts: string[] = [];
  if (audience.acceptsMarketing !== undefined) {
    parts.push(audience.acceptsMarketing ? "who accept marketing" : "who do not accept marketing");
  }
  if (audience.minOrdersCount !== undefined) {
    parts.push(
      `with at least ${audience.minOrdersCount} ${audience.minOrdersCount === 1 ? "order" : "orders"}`,
    );
  }
  if (audience.minTotalSpent !== undefined) parts.push(`who spent at least ${audience.minTotalSpent}`);
  if (audience.tagsInclude?.length) parts.push(`tagged ${audience.tagsInclude.join(" or ")}`);
  if (audience.tagsExclude?.length) parts.push(`not tagged ${audience.tagsExclude.join(" or ")}`);
  if (audience.createdWithinDays !== undefined) {
    parts.push(
      `who became customers in the last ${audience.createdWithinDays} ${audience.createdWithinDays === 1 ? "day" : "days"}`,
    );
  }
  return parts.length ? `Customers ${parts.join(", ")}` : "Every customer";
}
