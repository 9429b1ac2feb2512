import { z } from "zod";
import { line, paramsObject, text } from "../params";
import { retryParams } from "../retry";
import type { CredentialUse, NodeDefinition, StepOutput } from "../types";
import { excerpt as cut, listed, text as shown } from "../sentences";

/**
 * Store actions (issue 52): steps that write back into the connected Shopify or WooCommerce store
 * itself, through the connection's write credential (`shopify_admin`, `woocommerce_rest`), where
 * the merchant's staff, apps and reports see them. Browser-safe; the executors are in
 * `store.execute.ts`, the platforms' calls in lib/connections/store-api.ts.
 */

export const STORE_PLATFORMS = ["shopify", "woocommerce"] as const;
export type StorePlatform = (typeof STORE_PLATFORMS)[number];
export const STORE_PLATFORM_NAMES: Record<StorePlatform, string> = {
  shopify: "Shopify",
  woocommerce: "WooCommerce",
};

/** The credential kind each platform writes with. */
export const STORE_KIND_OF = {
  shopify: "shopify_admin",
  woocommerce: "woocommerce_rest",
} as const satisfies Record<StorePlatform, string>;

/** Shopify's `FulfillmentHoldReason` values, in the merchant's words. */
export const HOLD_REASONS = {
  AWAITING_PAYMENT: "Awaiting payment",
  HIGH_RISK_OF_FRAUD: "High risk of fraud",
  INCORRECT_ADDRESS: "Incorrect address",
  INVENTORY_OUT_OF_STOCK: "Out of stock",
  UNKNOWN_DELIVERY_DATE: "Unknown delivery date",
  AWAITING_RETURN_ITEMS: "Awaiting returned items",
  OTHER: "Other",
} as const;
export type HoldReason = keyof typeof HOLD_REASONS;

/** A store action names its store's write credential, of its platform's kind (issue 52). */
function storeCredentials({ credentialId, platform }: Readonly<Record<string, unknown>>): CredentialUse[] {
  return typeof credentialId === "string" && credentialId !== ""
    ? [{ credentialId, kinds: [platform === "woocommerce" ? "woocommerce_rest" : "shopify_admin"] }]
    : [];
}

/** Where a dry run's store step would write: "in Shopify", "in WooCommerce". */
function inStore(request: Record<string, unknown>): string {
  return request.platform === "woocommerce" ? "in WooCommerce" : "in Shopify";
}

/** A hold reason a request carries, in the merchant's words: "awaiting payment". */
function holdReason(value: unknown): string {
  const reason = shown(value);
  return Object.hasOwn(HOLD_REASONS, reason) ? HOLD_REASONS[reason as HoldReason].toLowerCase() : reason;
}

/** Shopify metafield types a step can set (a text is the default). */
export const METAFIELD_TYPES = [
  "single_line_text_field",
  "multi_line_text_field",
  "number_integer",
  "number_decimal",
  "boolean",
  "json",
] as const;

/** At most this many tags one step adds or removes (Shopify's tag is at most 255 characters). */
export const MAX_STORE_TAGS = 20;

const common = {
  /** The store's write credential (made with its connection in Settings → Connections). */
  credentialId: z.uuid({
    error: (issue) =>
      issue.input === undefined || issue.input === ""
        ? "is required: choose the store to write to (connect it with an Admin API token or REST key in Settings → Connections)"
        : "must be the id of a store's write credential from Settings → Connections",
  }),
  /** Which platform the credential writes to; the store picker sets it with the credential. */
  platform: z.enum(STORE_PLATFORMS, { error: "must be shopify or woocommerce" }).default("shopify"),
  /** When the store is busy (429, throttled), errs (5xx) or does not answer. Default: 3 attempts. */
  retry: retryParams.optional(),
};

const target = z.enum(["order", "customer"], { error: "must be order or customer" }).default("order");

/** "vip, gold" as tags: split on commas, trimmed, empty ones and repeats dropped. */
export function storeTags(list: string): string[] {
  return [
    ...new Set(
      list
        .split(",")
        .map((tag) => tag.trim())
        .filter(Boolean),
    ),
  ];
}

const tagsParam = text()
  .max(2_000, "is longer than 2,000 characters")
  .refine((value) => storeTags(value).length > 0, "cannot be empty; write the tags, separated by commas")
  .refine((value) => storeTags(value).length <= MAX_STORE_TAGS, `can name at most ${MAX_STORE_TAGS} tags`)
  .refine((value) => storeTags(value).every((tag) => tag.length <= 255), "a tag is at most 255 characters");

const tagsParams = paramsObject({ ...common, target, tags: tagsParam });
const noteParams = paramsObject({
  ...common,
  note: text().regex(/\S/, "cannot be empty").max(2_000, "is longer than 2,000 characters"),
});
const holdParams = paramsObject({
  ...common,
  reason: z
    .enum(Object.keys(HOLD_REASONS) as [HoldReason, ...HoldReason[]], {
      error: "must be one of Shopify's hold reasons",
    })
    .default("OTHER"),
  reasonNotes: text().max(500, "is longer than 500 characters").optional(),
});
const releaseParams = paramsObject({ ...common });
const metafieldParams = paramsObject({
  ...common,
  target,
  namespace: line(255).regex(/^[\w-]{2,255}$/, "is letters, digits, - and _ (at least 2), such as custom"),
  key: line(64).regex(/^[\w-]{2,64}$/, "is letters, digits, - and _ (at least 2), such as loyalty_tier"),
  type: z
    .enum(METAFIELD_TYPES, { error: `must be one of ${METAFIELD_TYPES.join(", ")}` })
    .default("single_line_text_field"),
  value: text().max(10_000, "is longer than 10,000 characters"),
});

function excerpt(value: string, max = 40): string {
  const flat = value.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

const storeName = (platform: StorePlatform) => `in ${STORE_PLATFORM_NAMES[platform]}`;
const quoted = (tags: string) =>
  storeTags(tags)
    .map((tag) => `'${tag}'`)
    .join(", ");

const written: StepOutput[] = [
  { path: "platform", label: "the store written to (shopify or woocommerce)" },
  { path: "recordId", label: "the store's id of the record written" },
];

const handles = { in: true, out: ["out"] } as const;

/** What "Add tags" and "Remove tags in the store" both start with and hand on. */
const tagsDefaults = () => ({
  credentialId: "",
  platform: "shopify" as const,
  target: "order" as const,
  tags: "",
});
const tagsOutputs = () => [
  ...written,
  { path: "tags", label: "the record's tags in the store after the step" },
];

export const storeAddTags = {
  type: "auto.action.store_add_tags",
  category: "action",
  label: "Add tags in the store",
  description:
    "Adds tags to the order (or its customer) in the connected store itself, where staff and apps see them. Adding a tag it already has changes nothing; Tillflow's record gets the store's tags back.",
  params: tagsParams,
  defaultParams: tagsDefaults,
  handles,
  templated: ["tags"],
  summarise: ({ tags, target: on, platform }) =>
    `Add tags ${quoted(tags)} to the ${on} ${storeName(platform)}`,
  summariseDraft: () => "Add tags in the store (choose the store and the tags)",
  outputs: tagsOutputs,
  needsRecord: () => true,
  paramLabels: { target: "Tag", tags: "Tags" },
  paramHelp: { tags: "Separate tags with commas (at most 20). Insert token adds a value of the record." },
  describeDryRun: (request) => [
    `Would add tags ${listed(request.tags)} to ${shown(request.label)} ${inStore(request)}.`,
  ],
  credentials: storeCredentials,
} satisfies NodeDefinition<typeof tagsParams>;

export const storeRemoveTags = {
  type: "auto.action.store_remove_tags",
  category: "action",
  label: "Remove tags in the store",
  description:
    "Removes tags from the order (or its customer) in the connected store. A tag it does not have changes nothing.",
  params: tagsParams,
  defaultParams: tagsDefaults,
  handles,
  templated: ["tags"],
  summarise: ({ tags, target: on, platform }) =>
    `Remove tags ${quoted(tags)} from the ${on} ${storeName(platform)}`,
  summariseDraft: () => "Remove tags in the store (choose the store and the tags)",
  outputs: tagsOutputs,
  needsRecord: () => true,
  paramLabels: { target: "Untag", tags: "Tags" },
  paramHelp: { tags: "Separate tags with commas (at most 20)." },
  describeDryRun: (request) => [
    `Would remove tags ${listed(request.tags)} from ${shown(request.label)} ${inStore(request)}.`,
  ],
  credentials: storeCredentials,
} satisfies NodeDefinition<typeof tagsParams>;

export const storeAddOrderNote = {
  type: "auto.action.store_add_order_note",
  category: "action",
  label: "Add an order note in the store",
  description:
    "Adds a line to the order's note in the connected store (Shopify's order note; a private order note in WooCommerce). Written once per run, even after a retry or a restart.",
  params: noteParams,
  defaultParams: () => ({ credentialId: "", platform: "shopify" as const, note: "" }),
  handles,
  entityDomain: "order",
  templated: ["note"],
  summarise: ({ note, platform }) => `Add the note '${excerpt(note)}' to the order ${storeName(platform)}`,
  summariseDraft: () => "Add an order note in the store (choose the store and write the note)",
  outputs: () => [...written, { path: "note", label: "the order's note in the store after the step" }],
  paramLabels: { note: "Note" },
  paramHelp: {
    note: "Added as a new line of the order's note in the store, once per run. Insert token adds a value of the record.",
  },
  describeDryRun: (request) => [
    `Would add the note “${cut(request.note, 1000)}” to ${shown(request.label)} ${inStore(request)}.`,
  ],
  credentials: storeCredentials,
} satisfies NodeDefinition<typeof noteParams>;

export const storeHoldFulfillment = {
  type: "auto.action.store_hold_fulfillment",
  category: "action",
  label: "Hold fulfillment in the store",
  description:
    "Puts the order's open fulfillment orders on hold in Shopify (WooCommerce: sets the order On hold), so nothing ships until it is released. Held once per run, even after a retry or a restart.",
  params: holdParams,
  defaultParams: () => ({ credentialId: "", platform: "shopify" as const, reason: "OTHER" as const }),
  handles,
  entityDomain: "order",
  templated: ["reasonNotes"],
  summarise: ({ reason, platform }) =>
    `Hold the order's fulfillment ${storeName(platform)} (${HOLD_REASONS[reason].toLowerCase()})`,
  summariseDraft: () => "Hold fulfillment in the store (choose the store)",
  outputs: () => [...written, { path: "held", label: "how many fulfillment orders were put on hold" }],
  paramLabels: { reason: "Reason", reasonNotes: "Notes for staff" },
  describeDryRun: (request) => [
    request.platform === "woocommerce"
      ? `Would set ${shown(request.label)} On hold in WooCommerce.`
      : `Would hold the open fulfillment orders of ${shown(request.label)} in Shopify (reason: ${holdReason(request.reason)}).`,
  ],
  credentials: storeCredentials,
} satisfies NodeDefinition<typeof holdParams>;

export const storeReleaseHold = {
  type: "auto.action.store_release_hold",
  category: "action",
  label: "Release the hold",
  description:
    "Releases the holds on the order's fulfillment orders in Shopify (WooCommerce: sets the order back to Processing).",
  params: releaseParams,
  defaultParams: () => ({ credentialId: "", platform: "shopify" as const }),
  handles,
  entityDomain: "order",
  summarise: ({ platform }) => `Release the order's fulfillment hold ${storeName(platform)}`,
  summariseDraft: () => "Release the hold (choose the store)",
  outputs: () => [...written, { path: "released", label: "how many fulfillment orders were released" }],
  describeDryRun: (request) => [
    request.platform === "woocommerce"
      ? `Would set ${shown(request.label)} back to Processing in WooCommerce.`
      : `Would release the holds on the fulfillment orders of ${shown(request.label)} in Shopify.`,
  ],
  credentials: storeCredentials,
} satisfies NodeDefinition<typeof releaseParams>;

export const storeSetMetafield = {
  type: "auto.action.store_set_metafield",
  category: "action",
  label: "Set a metafield in the store",
  description:
    "Sets a metafield on the order (or its customer) in Shopify (WooCommerce: a meta data entry named namespace.key). Setting the same value again changes nothing.",
  params: metafieldParams,
  defaultParams: () => ({
    credentialId: "",
    platform: "shopify" as const,
    target: "order" as const,
    namespace: "custom",
    key: "",
    type: "single_line_text_field" as const,
    value: "",
  }),
  handles,
  templated: ["value"],
  summarise: ({ namespace, key, value, target: on, platform }) =>
    `Set ${namespace}.${key} to '${excerpt(value, 30)}' on the ${on} ${storeName(platform)}`,
  summariseDraft: () => "Set a metafield in the store (choose the store, the key and the value)",
  outputs: () => [...written, { path: "value", label: "the value the store keeps" }],
  needsRecord: () => true,
  paramLabels: { target: "On", type: "Type", value: "Value" },
  paramHelp: {
    namespace: "Shopify's namespace, such as custom.",
    value:
      "Written as the metafield's type says: a number for number types, true or false for boolean, JSON for json.",
  },
  describeDryRun: (request) => [
    `Would set ${shown(request.namespace)}.${shown(request.key)} to “${cut(request.value, 200)}” on ${shown(request.label)} ${inStore(request)}.`,
  ],
  credentials: storeCredentials,
} satisfies NodeDefinition<typeof metafieldParams>;

/** The store action types, for the editor's credential picker. */
export const STORE_ACTION_TYPES = [
  storeAddTags.type,
  storeRemoveTags.type,
  storeAddOrderNote.type,
  storeHoldFulfillment.type,
  storeReleaseHold.type,
  storeSetMetafield.type,
] as const;
