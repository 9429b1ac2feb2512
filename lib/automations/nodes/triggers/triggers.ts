import { z } from "zod";
import { describeCron } from "@/lib/time/schedule-sentence";
import { dstRuleSchema } from "@/lib/time/dst";
import { zoneCity } from "@/lib/time/zone-options";
import { DOMAIN_LABELS, isDomain, orderStatuses, type Domain } from "@/lib/domains/domains";
import { credentialId, integer, line, paramsObject, randomToken, text } from "../params";
import { cronProblem, FIVE_FIELDS, hasFiveFields } from "@/lib/time/cron";
import { isTimeZone, localTimeZone } from "@/lib/time/zones";
import type { NodeDefinition, TriggerDomain } from "../types";
import { LATER_TRIGGER, SCHEDULE_TRIGGER, WEBHOOK_TRIGGER } from "./trigger-types";

/**
 * Triggers: what starts a run. A trigger `auto.trigger.<domain>_<verb>` listens to the event
 * `<domain>.<verb>` (SPEC §4). Most triggers have no settings, so they are data: one row each in
 * `SIMPLE_TRIGGERS`. The few with settings are written out below the table.
 */

const TRIGGER_HANDLES = { in: false, out: ["out"] } as const;

interface SimpleTriggerRow {
  domain: Domain;
  event: string;
  label: string;
  /** Also the node's summary. */
  sentence: string;
  description: string;
}

const SIMPLE_TRIGGERS = {
  "auto.trigger.order_created": {
    domain: "order",
    event: "order.created",
    label: "Order created",
    sentence: "When an order is created",
    description: "Starts when a new order is placed.",
  },
  "auto.trigger.order_paid": {
    domain: "order",
    event: "order.paid",
    label: "Order paid",
    sentence: "When an order is paid",
    description: "Starts when an order's status becomes paid.",
  },
  "auto.trigger.order_fulfilled": {
    domain: "order",
    event: "order.fulfilled",
    label: "Order fulfilled",
    sentence: "When an order is fulfilled",
    description: "Starts when an order's status becomes fulfilled.",
  },
  "auto.trigger.order_cancelled": {
    domain: "order",
    event: "order.cancelled",
    label: "Order cancelled",
    sentence: "When an order is cancelled",
    description: "Starts when an order's status becomes cancelled.",
  },
  "auto.trigger.cart_abandoned": {
    domain: "cart",
    event: "cart.abandoned",
    label: "Cart abandoned",
    sentence: "When a cart is abandoned",
    description: "Starts when a cart is marked abandoned.",
  },
  "auto.trigger.customer_created": {
    domain: "customer",
    event: "customer.created",
    label: "Customer created",
    sentence: "When a customer signs up",
    description: "Starts when a new customer record is created.",
  },
  "auto.trigger.refund_created": {
    domain: "refund",
    event: "refund.created",
    label: "Refund created",
    sentence: "When a refund is created",
    description: "Starts when a refund is issued.",
  },
  "auto.trigger.shipment_delivered": {
    domain: "shipment",
    event: "shipment.delivered",
    label: "Shipment delivered",
    sentence: "When a shipment is delivered",
    description: "Starts when a shipment's status becomes delivered.",
  },
  "auto.trigger.invoice_overdue": {
    domain: "invoice",
    event: "invoice.overdue",
    label: "Invoice overdue",
    sentence: "When an invoice becomes overdue",
    description: "Starts when an invoice's status becomes overdue.",
  },
} as const satisfies Record<string, SimpleTriggerRow>;

const noParams = paramsObject({});

type SimpleTriggerDefinition<T extends string> = NodeDefinition<typeof noParams> & {
  type: T;
  category: "trigger";
};

function fromTable<Table extends Record<string, SimpleTriggerRow>>(
  table: Table,
): { [K in keyof Table & string]: SimpleTriggerDefinition<K> } {
  const entries = Object.entries(table).map(([type, row]) => {
    const definition: SimpleTriggerDefinition<string> = {
      type,
      category: "trigger",
      label: row.label,
      description: row.description,
      params: noParams,
      defaultParams: () => ({}),
      handles: TRIGGER_HANDLES,
      entityDomain: row.domain,
      event: row.event,
      summarise: () => row.sentence,
    };
    return [type, definition] as const;
  });
  // Object.fromEntries cannot carry the per-key types; the mapping above is exactly the one named.
  return Object.fromEntries(entries) as { [K in keyof Table & string]: SimpleTriggerDefinition<K> };
}

const orderStatus = z.enum(orderStatuses, { error: `must be one of ${orderStatuses.join(", ")}` });

const statusChangedParams = paramsObject({
  from: orderStatus.optional(),
  to: orderStatus.optional(),
}).superRefine((params, ctx) => {
  if (params.from && params.from === params.to) {
    ctx.addIssue({ code: "custom", path: ["to"], message: "is the same as from, so this would never start" });
  }
});

export const orderStatusChanged = {
  type: "auto.trigger.order_status_changed",
  category: "trigger",
  label: "Order status changed",
  description: "Starts when an order moves from one status to another; optionally only for a given change.",
  params: statusChangedParams,
  defaultParams: () => ({}),
  handles: TRIGGER_HANDLES,
  entityDomain: "order",
  event: "order.status_changed",
  summarise: ({ from, to }) => `Order status changes${from ? ` from ${from}` : ""}${to ? ` to ${to}` : ""}`,
  paramLabels: { from: "From status", to: "To status" },
} satisfies NodeDefinition<typeof statusChangedParams>;

const lowStockParams = paramsObject({ threshold: integer(0).default(5) });

export const productLowStock = {
  type: "auto.trigger.product_low_stock",
  category: "trigger",
  label: "Product low on stock",
  description: "Starts when a product's inventory drops to the threshold or below it.",
  params: lowStockParams,
  defaultParams: () => ({ threshold: 5 }),
  handles: TRIGGER_HANDLES,
  entityDomain: "product",
  event: "product.low_stock",
  summarise: ({ threshold }) => `Product stock drops to ${threshold} or below`,
  paramLabels: { threshold: "Stock at or below" },
} satisfies NodeDefinition<typeof lowStockParams>;

const webhookParams = paramsObject({
  token: text()
    .min(16, "must be at least 16 characters")
    .max(128, "is longer than 128 characters")
    .regex(/^[A-Za-z0-9_-]+$/, "use letters, digits, dashes or underscores"),
  /** A credential of kind `webhook_secret` (SPEC §2 "Credentials"): requests must be signed with it. */
  secretCredentialId: credentialId.optional(),
  /** Accepted on save for older clients; it becomes a credential then, and never stays in the graph. */
  secret: text().min(1, "cannot be empty").max(200, "is longer than 200 characters").optional(),
  /**
   * Only signed requests: the trigger cannot be published without a signing secret. True for a new
   * trigger (`defaultParams`); absent — graphs saved before it existed — unsigned requests stay allowed.
   */
  signed: z.boolean().optional(),
});

/** Whether a webhook trigger's params name a signing secret (a credential, or one typed in to become one). */
export function webhookHasSecret(params: { secret?: string; secretCredentialId?: string }): boolean {
  return Boolean(params.secret || params.secretCredentialId);
}

export const webhook = {
  type: WEBHOOK_TRIGGER,
  category: "trigger",
  label: "Webhook received",
  description:
    "Starts when another system posts to this flow's own URL. With a signing secret (a credential), only requests signed with it (HMAC) are accepted.",
  params: webhookParams,
  defaultParams: () => ({ token: randomToken(), signed: true }),
  handles: TRIGGER_HANDLES,
  // The token is the address: whoever has it can post, so viewers never see it.
  editorOnlyParams: ["token"],
  entityDomain: "webhook",
  event: "webhook.received",
  summarise: ({ secret, secretCredentialId }) =>
    secret || secretCredentialId ? "When a signed webhook is received" : "When a webhook is received",
  paramLabels: { signed: "Only signed requests" },
  paramHelp: {
    signed:
      "On: requests must carry a signature made with the signing secret, and the flow cannot be published without one. Off: anyone with the link can start runs.",
  },
  check: (params) =>
    params.signed === true && !webhookHasSecret(params)
      ? [
          "Choose a signing secret for this webhook, or turn off Only signed requests: unsigned, anyone with its link can start runs.",
        ]
      : [],
  credentials: ({ secretCredentialId }) =>
    typeof secretCredentialId === "string"
      ? [{ credentialId: secretCredentialId, kinds: ["webhook_secret"] }]
      : [],
} satisfies NodeDefinition<typeof webhookParams>;

const tagList = z.array(line(100)).max(50, "can list at most 50 tags");

export const audienceSchema = paramsObject({
  tagsInclude: tagList.optional(),
  tagsExclude: tagList.optional(),
  acceptsMarketing: z.boolean({ error: "must be true or false" }).optional(),
  minTotalSpent: z.number({ error: "must be a number" }).finite().min(0, "cannot be negative").optional(),
  minOrdersCount: integer(0).optional(),
  createdWithinDays: integer(1).optional(),
});
export type Audience = z.infer<typeof audienceSchema>;

/**
 * A cron expression croner accepts (see `schedules/cron.ts`): five fields first, then the field
 * croner refuses, named in a sentence ("'0 25 * * *': hour must be 0–23…"). An invalid schedule
 * is a ready issue, and a stored one that no longer parses never fires.
 */
const cronExpression = text()
  .trim()
  .superRefine((value, ctx) => {
    if (!hasFiveFields(value)) {
      ctx.addIssue({ code: "custom", message: FIVE_FIELDS });
      return;
    }
    const problem = cronProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

export const scheduleParams = paramsObject({
  cron: cronExpression,
  timezone: text().refine(isTimeZone, "must be a time zone such as Europe/Paris or UTC"),
  audience: audienceSchema.optional(),
  /** What happens on the days clocks change (`lib/time/dst.ts`); left out: gap_end + once. */
  dst: dstRuleSchema.optional(),
});
export type ScheduleParams = z.infer<typeof scheduleParams>;

export const schedule = {
  type: SCHEDULE_TRIGGER,
  category: "trigger",
  label: "On a schedule",
  description:
    "Starts at the times of a cron schedule in a time zone. With an audience, it starts one run for each matching customer. When clocks change, a time written out (such as 02:30) that is skipped runs once at the first valid time after the jump, and one that happens twice runs once.",
  params: scheduleParams,
  defaultParams: () => ({ cron: "0 9 * * *", timezone: localTimeZone() }),
  timeZoneParam: "timezone",
  handles: TRIGGER_HANDLES,
  entityDomain: "schedule",
  event: "schedule.fired",
  // "Every Monday at 09:00, Paris time": the sentence the schedule builder shows, not the cron.
  summarise: ({ cron, timezone, audience }) =>
    `${describeCron(cron)}, ${zoneCity(timezone)} time${audience ? ", once for each matching customer" : ""}`,
} satisfies NodeDefinition<typeof scheduleParams>;

const laterParams = paramsObject({ step: line(100) });

export const later = {
  type: LATER_TRIGGER,
  category: "trigger",
  label: "Later step comes due",
  description: "Starts when a later step of this automation with the same name comes due.",
  params: laterParams,
  defaultParams: () => ({ step: "" }),
  handles: TRIGGER_HANDLES,
  entityDomain: "later",
  event: "later",
  summarise: ({ step }) => `When the later step '${step}' comes due`,
  // Each Later trigger starts at its own step name: the first in the flow keeps it.
  review: ({ node, params }, { steps }) => {
    const step = params?.step;
    if (typeof step !== "string") return [];
    const first = steps.find(
      (other) =>
        other.definition.category === "trigger" &&
        other.node.type === node.type &&
        other.params?.step === step,
    );
    return first && first.node.id !== node.id
      ? [
          `Another trigger already starts when the later step '${step}' comes due; give each a different name.`,
        ]
      : [];
  },
} satisfies NodeDefinition<typeof laterParams>;

export const TRIGGER_DEFINITIONS = {
  ...fromTable(SIMPLE_TRIGGERS),
  "auto.trigger.order_status_changed": orderStatusChanged,
  "auto.trigger.product_low_stock": productLowStock,
  "auto.trigger.webhook": webhook,
  "auto.trigger.schedule": schedule,
  "auto.trigger.later": later,
};

type EventPayload = Record<string, unknown>;

/**
 * Trigger-level filters, applied after the event type matched. A trigger absent here fires on
 * every event of its type. Params that do not parse never fire: a broken stored graph must not
 * run actions nobody configured.
 */
export const TRIGGER_FILTERS: Partial<
  Record<keyof typeof TRIGGER_DEFINITIONS, (params: unknown, payload: EventPayload) => boolean>
> = {
  "auto.trigger.order_status_changed": (params, payload) => {
    const parsed = statusChangedParams.safeParse(params);
    if (!parsed.success) return false;
    const { from, to } = parsed.data;
    return (from === undefined || payload.from === from) && (to === undefined || payload.to === to);
  },
  "auto.trigger.later": (params, payload) => {
    const parsed = laterParams.safeParse(params);
    return parsed.success && payload.step === parsed.data.step;
  },
  "auto.trigger.product_low_stock": (params, payload) => {
    const parsed = lowStockParams.safeParse(params);
    if (!parsed.success) return false;
    const { threshold } = parsed.data;
    // Fires once, when stock crosses the threshold on the way down, not on every sale below it.
    return (
      typeof payload.from === "number" &&
      typeof payload.to === "number" &&
      payload.from > threshold &&
      threshold >= payload.to
    );
  },
};

/** "an order", "a cart": a domain with its article, for sentences. */
export function aDomain(domain: TriggerDomain): string {
  if (isDomain(domain)) return DOMAIN_LABELS[domain].a;
  return `${/^[aeiou]/.test(domain) ? "an" : "a"} ${domain}`;
}
