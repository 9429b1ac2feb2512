import { DELIVERY_RESULTS, PLATFORMS } from "@/lib/connections/platforms";
import { CREDENTIAL_KINDS } from "@/lib/credentials/kinds";
import { z } from "zod";
import { graphSchema } from "@/lib/automations/graph/schema";
import { IN_FLIGHT_POLICIES } from "@/lib/automations/lifecycle/policies";
import { RUN_STATUSES } from "@/lib/automations/runs/history";
import type { ErrorCode } from "@/lib/errors";

/*
 * The shapes `/api/v1` answers with (SPEC §4), for the OpenAPI document. Requests are parsed with
 * the services' own schemas; replies are built by plain functions (`view`, `getRun`, …), so these
 * describe them. Objects are loose: the SPEC promises these fields, and more are welcome.
 * tests/api/openapi.test.ts checks real replies against them.
 */

/**
 * The OpenAPI document's metadata: a schema registered here with an `id` becomes a named component
 * (`#/components/schemas/<id>`). A registry of its own, so nothing else's JSON Schema changes.
 */
export const docs = z.registry<{ id?: string; description?: string }>();

docs.add(graphSchema, {
  id: "Graph",
  description:
    'The flow: steps (`nodes`) and connections (`edges`); `sourceHandle` defaults to "out". `GET /api/v1/node-types` lists each step type\'s params.',
});

const instant = z.iso.datetime({ offset: true });

const ERROR_CODES = [
  "bad_request",
  "unauthorized",
  "forbidden",
  "not_found",
  "conflict",
  "invalid",
  "too_large",
  "rate_limited",
  "internal",
  "provider_error",
  "unavailable",
  "timeout",
] as const satisfies readonly ErrorCode[];

/** Every error: a stable code, a sentence a merchant can act on, and the fields at fault. */
export const apiErrorShape = z
  .object({
    error: z.object({
      code: z.enum(ERROR_CODES),
      message: z.string(),
      issues: z
        .array(
          z.object({
            path: z.string().optional(),
            nodeId: z.string().optional(),
            edgeId: z.string().optional(),
            message: z.string(),
          }),
        )
        .optional(),
    }),
  })
  .register(docs, { id: "Error" });

/** `{ items, nextCursor }`: pass `nextCursor` back as `cursor` for the next page; null on the last. */
export function listShape<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), nextCursor: z.string().nullable() });
}

/** A thing the list routes answer with when no more than its id is promised. */
const record = z.looseObject({ id: z.string() });
export const recordListShape = listShape(record);

export const readyIssueShape = z.looseObject({
  nodeId: z.string().optional(),
  edgeId: z.string().optional(),
  message: z.string(),
});

/** An automation's caps as stored: each limit absent when off. */
export const capsShape = z
  .looseObject({
    maxRunsPerHour: z.int().min(1).optional(),
    maxPerRecord: z.object({ count: z.int().min(1), hours: z.int().min(1) }).optional(),
    pauseOnStorm: z.boolean().optional(),
  })
  .register(docs, { id: "Caps" });

export const automationShape = z
  .looseObject({
    id: z.uuid(),
    name: z.string(),
    description: z.string(),
    status: z.enum(["draft", "active", "paused", "archived"]),
    /** 0 until first published. */
    version: z.int().min(0),
    inFlightPolicy: z.enum(IN_FLIGHT_POLICIES),
    draftGraph: graphSchema,
    draftRevision: z.int(),
    activeGraph: graphSchema.nullable(),
    readyIssues: z.array(readyIssueShape),
    hasUnpublishedChanges: z.boolean(),
    builtinSlug: z.string().nullable(),
    caps: capsShape,
    /** The share of customers held out (0–50); 0: off. */
    holdoutPercent: z.int().min(0).max(50),
    createdAt: instant,
    updatedAt: instant,
  })
  .register(docs, { id: "Automation" });

/** What publishing, pausing or archiving does to runs parked on a wait, in a sentence. */
const impactShape = z.looseObject({
  waitingRuns: z.int().min(0),
  policy: z.enum(IN_FLIGHT_POLICIES),
  message: z.string(),
});

/** Pausing or activating: the automation, and what it did to the runs waiting now. */
export const automationChangeShape = z.object({ automation: automationShape, impact: impactShape });

/** Publishing: `published` is false when the draft was the active version already (nothing to do). */
export const publishShape = automationChangeShape.extend({ published: z.boolean() });

export const automationListShape = listShape(
  z
    .looseObject({
      id: z.uuid(),
      name: z.string(),
      status: z.enum(["draft", "active", "paused", "archived"]),
      version: z.int().min(0),
      triggerTypes: z.array(z.string()),
      updatedAt: instant,
      lastRunAt: instant.nullable(),
      waitingRuns: z.int(),
      builtin: z.boolean(),
    })
    .register(docs, { id: "AutomationListItem" }),
);

export const credentialShape = z
  .object({
    id: z.uuid(),
    name: z.string(),
    kind: z.enum(CREDENTIAL_KINDS),
    last4: z
      .string()
      .meta({ description: "The secret's last 4 characters; the value itself is never sent." }),
    createdBy: z.string(),
    createdAt: instant,
    rotatedAt: instant.nullable(),
    allowedHosts: z.array(z.string()).meta({
      description:
        "The hosts it may be sent to: exact (`api.example.com`) or `*.example.com` (its subdomains only), lower-cased. Empty: nowhere, until an admin sets them. A Slack webhook's is its URL's host; webhook secrets are never sent and have none.",
    }),
  })
  .register(docs, { id: "Credential" });

export const connectionShape = z
  .object({
    id: z.uuid(),
    platform: z.enum(PLATFORMS),
    name: z.string(),
    url: z.url().meta({
      description: "Paste this into the platform's webhook settings: `POST /api/connect/<platform>/<token>`.",
    }),
    credential: z.object({ id: z.uuid(), name: z.string(), last4: z.string() }).meta({
      description: "The webhook secret, kept as a credential: its name and last 4 characters only.",
    }),
    createdBy: z.string(),
    createdAt: instant,
    lastDeliveryAt: instant.nullable(),
    writes: z
      .object({ credentialId: z.uuid(), name: z.string(), last4: z.string(), host: z.string() })
      .nullable()
      .meta({
        description:
          "The credential that writes back to the store (a Shopify Admin API token or a WooCommerce REST key): its name, last 4 characters and the store's host only. Null: the store only posts to Tillflow.",
      }),
    subscriptions: z
      .lazy(() => subscriptionsShape)
      .optional()
      .meta({
        description: "On the reply that connected a Shopify store with a token: the webhooks registered.",
      }),
  })
  .register(docs, { id: "Connection" });

export const subscriptionsShape = z
  .object({
    items: z.array(
      z.object({
        topic: z.string().meta({
          description:
            "The platform's webhook topic, as `orders/paid` (Shopify) or `order.updated` (WooCommerce).",
        }),
        state: z.enum(["active", "missing", "paused"]).meta({
          description:
            "`paused`: a WooCommerce webhook its store paused or disabled (Repair sets it active).",
        }),
        id: z.string().optional().meta({ description: "The store's id of the subscription or webhook." }),
      }),
    ),
    error: z
      .string()
      .optional()
      .meta({ description: "Why the store could not be asked, or what it refused." }),
  })
  .register(docs, { id: "WebhookSubscriptions" });

export const deliveryShape = z
  .object({
    id: z.uuid(),
    at: instant.meta({ description: "When the delivery arrived." }),
    processedAt: instant
      .nullable()
      .meta({ description: "When the worker applied it; null while `received`." }),
    topic: z.string().meta({ description: "The platform's topic, e.g. `orders/create` or `order.created`." }),
    deliveryId: z.string().nullable().meta({ description: "The platform's id of the delivery." }),
    result: z.enum(DELIVERY_RESULTS).meta({
      description:
        "`received` until the worker applies it; then `applied`, `duplicate` (a copy of one received before), `stale` (older than what the record holds) or `refused`.",
    }),
    reason: z.string().optional().meta({ description: "Why, in a sentence." }),
    domain: z.string().optional().meta({ description: "The record's domain, when the delivery names one." }),
    entityId: z.string().optional(),
  })
  .register(docs, { id: "Delivery" });

export const waitShape = z
  .looseObject({
    id: z.uuid(),
    kind: z.string(),
    status: z.string(),
    runId: z.uuid(),
    automationId: z.uuid(),
    nodeId: z.string(),
    nodeType: z.string(),
    resumeAt: instant,
    reason: z.string().nullable(),
    createdAt: instant,
    resolvedAt: instant.nullable(),
  })
  .register(docs, { id: "Wait" });

export const waitListShape = listShape(waitShape);

const runSummaryFields = {
  id: z.uuid(),
  automationId: z.uuid(),
  automationVersion: z.int(),
  status: z.enum(RUN_STATUSES),
  eventType: z.string(),
  domain: z.string(),
  entityId: z.string().nullable(),
  startedAt: instant.nullable(),
  finishedAt: instant.nullable(),
  createdAt: instant,
  resumeAt: instant.nullable(),
  reason: z.string().nullable(),
  error: z.string().nullable(),
  /** Actions the settled run took; 0 on a succeeded run is "Nothing to do"; null while in flight. */
  actionsTaken: z.int().nullable().optional(),
};

export const runListShape = listShape(z.looseObject(runSummaryFields).register(docs, { id: "RunSummary" }));

/** A condition step's reason (SPEC §2 "Backtest and why"): what it read and compared, in words. */
export const conditionWhyShape = z
  .looseObject({
    path: z.string().optional().meta({ description: "The field read: `total`, `steps.code1.score`." }),
    value: z.unknown().optional().meta({ description: "The value read; absent when it was missing." }),
    missing: z.boolean(),
    operator: z.string().meta({ description: "The field condition's operator, or `has_tag`." }),
    compared: z.unknown().optional().meta({ description: "What the value was compared with." }),
    text: z.string().meta({ description: 'In words: "Total is 80, not more than 100".' }),
  })
  .register(docs, { id: "ConditionWhy" });

export const runShape = z
  .looseObject({
    ...runSummaryFields,
    rerunOf: z.uuid().nullable().optional(),
    steps: z.array(
      z.looseObject({
        nodeId: z.string(),
        nodeType: z.string(),
        status: z.string(),
        leg: z.int(),
        error: z.string().nullable(),
        why: conditionWhyShape.optional(),
      }),
    ),
    waits: z.array(waitShape),
  })
  .register(docs, { id: "Run" });

/** A run a backtest replayed (POST /api/v1/automations/{id}/backtest: `changed`, `unknown`). */
const backtestRunShape = z.looseObject({
  runId: z.uuid(),
  entity: z.looseObject({ domain: z.string(), id: z.string(), label: z.string() }).nullable(),
  then: z
    .array(z.string())
    .meta({ description: "The steps the real run reached, over all its parts so far." }),
  now: z
    .array(z.string())
    .meta({ description: "The steps it would reach now, whatever the outcome of waits it never had." }),
  maybe: z.array(z.string()).optional().meta({
    description:
      "Steps it would reach only with some outcomes of `undecided` (an approval or event it never had).",
  }),
  undecided: z.array(z.string()).optional().meta({
    description: "Approvals and waits for an event it never had an outcome for: each out was followed.",
  }),
  notKnown: z.enum(["waiting", "running", "outcome"]).optional().meta({
    description:
      "Why its later steps are not known: the real run still waits or still runs, or it depends on an outcome it never had.",
  }),
  lost: z
    .array(z.string())
    .optional()
    .meta({ description: "Steps it would no longer reach (conditions left out)." }),
  gained: z
    .array(z.string())
    .optional()
    .meta({ description: "Steps it would newly reach (conditions left out)." }),
  mightLose: z.array(z.string()).optional(),
  mightGain: z.array(z.string()).optional(),
});

/** A backtest's answer (POST /api/v1/automations/{id}/backtest). */
export const backtestShape = z
  .looseObject({
    runs: z.int().meta({ description: "The real runs replayed." }),
    then: z.record(z.string(), z.int()).meta({ description: "Node id → the runs that reached it." }),
    now: z.record(z.string(), z.int()).meta({ description: "Node id → the runs that would reach it now." }),
    changed: z.array(backtestRunShape).meta({ description: "The runs that would take a different path." }),
    unknown: z
      .array(backtestRunShape)
      .optional()
      .meta({ description: "The runs whose later steps are not known yet (still waiting, still running)." }),
    headline: z.string().optional().meta({
      description:
        'The answer in one line: "3 runs: 1 would take a different path; 1 would take the same path; 1 is still waiting, so its later steps are not known yet".',
    }),
    sentences: z.array(z.string()),
    differences: z.array(z.string()).optional().meta({
      description:
        "Only the sentences about steps that gain or lose runs: what to show under `headline`, which says the rest.",
    }),
    labels: z.record(z.string(), z.string()),
    notes: z.array(z.string()),
  })
  .register(docs, { id: "Backtest" });

export const entityShape = z
  .looseObject({
    id: z.string(),
    domain: z.string(),
    tags: z.array(z.string()),
    notes: z.array(
      z.looseObject({ id: z.string(), body: z.string(), author: z.string(), createdAt: instant }),
    ),
    recordedAt: instant,
    changedAt: instant,
  })
  .register(docs, { id: "Entity" });

/** One event recorded (201), or found already recorded by its id (200, `duplicate: true`). */
export const eventResultShape = z.looseObject({
  id: z.string(),
  type: z.string(),
  domain: z.string(),
  entityId: z.string().nullable(),
  payload: z.record(z.string(), z.unknown()),
  duplicate: z.boolean(),
});

/** An array of events: one `{ id, duplicate }` per event, in input order. */
export const eventBatchResultShape = z.object({
  items: z.array(z.object({ id: z.string(), duplicate: z.boolean() })),
});
