import crypto from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { textArray } from "@/lib/db/array-literal";
import { entities } from "@/lib/db/schema";
import { UnreadableSecretError } from "@/lib/credentials/secret-box";
import { credentialSecret } from "@/lib/credentials/store";
import {
  shopifyGraphql,
  StoreApiError,
  userErrorSentence,
  wooRest,
  type UserError,
} from "@/lib/connections/store-api";
import { ActionError, type ActionContext, type ActionOutput, type OutsideExecutor } from "../executor";
import type { RunEntity } from "../context";
import {
  METAFIELD_TYPES,
  STORE_KIND_OF,
  STORE_PLATFORM_NAMES,
  STORE_PLATFORMS,
  storeTags,
  type HoldReason,
  type StorePlatform,
} from "./store";

/**
 * The store actions' sends (issue 52). Each is an `outside` effect, like the HTTP step: the
 * engine records the delivery `sending`, the step calls the store, the engine records the
 * answer; a 429 or a throttled answer waits for Shopify's bucket, then is retried durably; a
 * worker killed mid-call sends again with the same dedupe key (`ctx.dedupeKey`, one per run and
 * step). Tags and metafields are idempotent; a note and a hold carry the key into the store
 * (the order's `tillflow.writes` metafield, written in the same `orderUpdate` as the note; the
 * hold's `handle`), and the step reads it back first, so neither is ever written twice.
 *
 * The request records the credential's id, never its value; the token is read at send time and
 * only ever goes into the `X-Shopify-Access-Token` (or Basic auth) header of the store's host.
 */

const storeRequest = z.object({
  credentialId: z.string(),
  platform: z.enum(STORE_PLATFORMS),
  /** The kind of the store's record written: the run's order, or the customer. */
  target: z.enum(["order", "customer"]),
  /** The store's id of the record (Tillflow's records from a store keep the store's id). */
  recordId: z.string(),
  /** The record in words: "order #1001", "customer ada@example.com". */
  label: z.string(),
  /** Why there is no record to write to, when there is none ("This run's order has no customer."). */
  missing: z.string().optional(),
  tags: z.array(z.string()).optional(),
  note: z.string().optional(),
  reason: z.string().optional(),
  reasonNotes: z.string().optional(),
  namespace: z.string().optional(),
  key: z.string().optional(),
  type: z.enum(METAFIELD_TYPES).optional(),
  value: z.string().optional(),
});
export type StoreRequest = z.infer<typeof storeRequest>;

type Common = { credentialId: string; platform: StorePlatform };
type Target = "order" | "customer";

function orderLabel(entity: RunEntity): string {
  const number = entity.data.number;
  return `order ${typeof number === "string" && number ? number : entity.id}`;
}

function customerLabel(data: Record<string, unknown>, id: string): string {
  const email = data.email;
  return `customer ${typeof email === "string" && email ? email : id}`;
}

/** The store's record a step writes to, from the run's record. */
function recordOf(
  entity: RunEntity | null,
  target: Target,
): { recordId: string; label: string; missing?: string } {
  if (!entity)
    return {
      recordId: "",
      label: target,
      missing: "This run is not about a stored record, so there is nothing to write to in the store.",
    };
  if (target === "order") {
    if (entity.domain !== "order")
      return { recordId: "", label: "order", missing: `This run is about a ${entity.domain}, not an order.` };
    return { recordId: entity.id, label: orderLabel(entity) };
  }
  if (entity.domain === "customer")
    return { recordId: entity.id, label: customerLabel(entity.data, entity.id) };
  if (entity.domain === "order") {
    const customer = entity.customer;
    const id =
      customer && typeof customer.id === "string"
        ? customer.id
        : typeof entity.data.customerId === "string"
          ? entity.data.customerId
          : null;
    return id
      ? { recordId: id, label: customerLabel(customer ?? {}, id) }
      : {
          recordId: "",
          label: "customer",
          missing: `The ${orderLabel(entity)} has no customer to write to.`,
        };
  }
  return {
    recordId: "",
    label: "customer",
    missing: `This run is about a ${entity.domain}, which has no customer.`,
  };
}

function base(params: Common, ctx: ActionContext, target: Target) {
  return {
    credentialId: params.credentialId,
    platform: params.platform,
    target,
    ...recordOf(ctx.entity, target),
  };
}

/** Whether a request names a record the store can have: the store's ids are numbers. */
function check(request: StoreRequest): string | null {
  if (request.missing) return request.missing;
  if (!/^\d{1,20}$/.test(request.recordId))
    return `The ${request.label} did not come from ${STORE_PLATFORM_NAMES[request.platform]} (its id '${request.recordId}' is not the store's), so there is nothing to write to there.`;
  if (request.tags && request.tags.length === 0)
    return "The tags came out empty after filling in their placeholders.";
  if (request.note !== undefined && request.note.trim() === "")
    return "The note came out empty after filling in its placeholders.";
  return null;
}

function gid(request: StoreRequest): string {
  return `gid://shopify/${request.target === "order" ? "Order" : "Customer"}/${request.recordId}`;
}

/** A hold's `handle` (at most 64 characters, unique per app and fulfillment order): the step's dedupe key. */
export function holdHandle(dedupeKey: string): string {
  return `tillflow-${crypto.createHash("sha256").update(dedupeKey).digest("hex").slice(0, 40)}`;
}

/** The order's metafield that remembers which steps wrote to it (a note), keeping the latest 50. */
const WRITES = { namespace: "tillflow", key: "writes" } as const;
const WRITES_KEPT = 50;

interface Store {
  host: string;
  secret: string;
}

/** The credential as the send needs it, or the ActionError that says why it cannot be used. */
async function storeOf(tenantId: string, request: StoreRequest): Promise<Store> {
  let credential: Awaited<ReturnType<typeof credentialSecret>>;
  try {
    credential = await credentialSecret(tenantId, request.credentialId);
  } catch (error) {
    const unreadable = error instanceof UnreadableSecretError;
    throw new ActionError(
      `Nothing was written: ${unreadable ? error.message : "the shop's secrets could not be read just now."}`,
      {},
      unreadable ? null : {},
    );
  }
  const name = STORE_PLATFORM_NAMES[request.platform];
  if (!credential)
    throw new ActionError(
      `The ${name} store this step writes to was disconnected (its write credential is gone). Choose a store in the step's settings and publish again.`,
      {},
      null,
    );
  if (credential.kind !== STORE_KIND_OF[request.platform])
    throw new ActionError(
      `'${credential.name}' does not write to ${name}. Choose the store again in the step's settings and publish again.`,
      {},
      null,
    );
  const host = credential.allowedHosts[0];
  if (!host) throw new ActionError(`'${credential.name}' names no store to write to.`, {}, null);
  return { host, secret: credential.value };
}

/** Tillflow's copy of the record takes the tags the store answered with. */
async function keepTags(tenantId: string, domain: Target, id: string, tags: string[]): Promise<void> {
  await getDb()
    .update(entities)
    .set({ tags: sql`${textArray(tags)}::text[]`, updatedAt: new Date() })
    .where(and(eq(entities.tenantId, tenantId), eq(entities.domain, domain), eq(entities.id, id)));
}

function failOnUserErrors(errors: unknown, output: ActionOutput = {}): void {
  const list = Array.isArray(errors) ? (errors as UserError[]) : [];
  if (list.length > 0) throw new ActionError(userErrorSentence(list), { ...output, userErrors: list }, null);
}

const obj = (value: unknown): Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

function notFoundInStore(request: StoreRequest): ActionError {
  return new ActionError(
    `The ${request.label} was not found in ${STORE_PLATFORM_NAMES[request.platform]} (deleted there, or another store's).`,
    {},
    null,
  );
}

// --- Shopify -----------------------------------------------------------------------------------

const TAGS_MUTATION = (
  name: "tagsAdd" | "tagsRemove",
) => `mutation Store${name === "tagsAdd" ? "TagsAdd" : "TagsRemove"}($id: ID!, $tags: [String!]!) {
  ${name}(id: $id, tags: $tags) {
    node { id ... on Order { tags } ... on Customer { tags } }
    userErrors { field message }
  }
}`;

const ORDER_NOTE_QUERY = `query StoreOrderNote($id: ID!) {
  order(id: $id) { id note metafield(namespace: "${WRITES.namespace}", key: "${WRITES.key}") { value } }
}`;

const ORDER_UPDATE = `mutation StoreOrderNoteAdd($input: OrderInput!) {
  orderUpdate(input: $input) { order { id note } userErrors { field message } }
}`;

const FULFILLMENT_ORDERS_QUERY = `query StoreFulfillmentOrders($id: ID!) {
  order(id: $id) { id fulfillmentOrders(first: 20) { nodes { id status fulfillmentHolds { id handle } } } }
}`;

const HOLD_MUTATION = `mutation StoreHold($id: ID!, $fulfillmentHold: FulfillmentOrderHoldInput!) {
  fulfillmentOrderHold(id: $id, fulfillmentHold: $fulfillmentHold) {
    fulfillmentOrder { id status }
    userErrors { field message code }
  }
}`;

const RELEASE_MUTATION = `mutation StoreReleaseHold($id: ID!) {
  fulfillmentOrderReleaseHold(id: $id) { fulfillmentOrder { id status } userErrors { field message code } }
}`;

const METAFIELDS_SET = `mutation StoreMetafieldsSet($metafields: [MetafieldsSetInput!]!) {
  metafieldsSet(metafields: $metafields) { metafields { namespace key value } userErrors { field message code } }
}`;

type Op = "add_tags" | "remove_tags" | "note" | "hold" | "release" | "metafield";

async function shopify(
  op: Op,
  store: Store,
  request: StoreRequest,
  ctx: ActionContext,
): Promise<ActionOutput> {
  const call = (query: string, variables: Record<string, unknown>) =>
    shopifyGraphql(store.host, store.secret, query, variables);
  const out: ActionOutput = { platform: "shopify", recordId: request.recordId };
  switch (op) {
    case "add_tags":
    case "remove_tags": {
      const name = op === "add_tags" ? "tagsAdd" : "tagsRemove";
      const { data, waitedMs } = await call(TAGS_MUTATION(name), { id: gid(request), tags: request.tags });
      const result = obj(data[name]);
      failOnUserErrors(result.userErrors, out);
      const node = obj(result.node);
      if (!result.node) throw notFoundInStore(request);
      const tags = Array.isArray(node.tags) ? node.tags.map(String) : [];
      await keepTags(ctx.tenantId, request.target, request.recordId, tags);
      return { ...out, tags, ...(waitedMs ? { waitedMs } : {}) };
    }
    case "note": {
      const read = await call(ORDER_NOTE_QUERY, { id: gid(request) });
      const order = read.data.order ? obj(read.data.order) : null;
      if (!order) throw notFoundInStore(request);
      const current = typeof order.note === "string" ? order.note : "";
      let writes: string[] = [];
      try {
        const parsed: unknown = JSON.parse(String(obj(order.metafield).value ?? "[]"));
        writes = Array.isArray(parsed) ? parsed.map(String) : [];
      } catch {
        writes = [];
      }
      // Written by this step already (a worker stopped before it heard back): not again.
      if (writes.includes(ctx.dedupeKey)) return { ...out, note: current, alreadyWritten: true };
      const note = current.trim() ? `${current.replace(/\s+$/, "")}\n${request.note}` : request.note!;
      const { data, waitedMs } = await call(ORDER_UPDATE, {
        input: {
          id: gid(request),
          note,
          metafields: [
            {
              ...WRITES,
              type: "json",
              value: JSON.stringify([...writes, ctx.dedupeKey].slice(-WRITES_KEPT)),
            },
          ],
        },
      });
      const result = obj(data.orderUpdate);
      failOnUserErrors(result.userErrors, out);
      const written = obj(result.order).note;
      return {
        ...out,
        note: typeof written === "string" ? written : note,
        ...(waitedMs ? { waitedMs } : {}),
      };
    }
    case "hold":
    case "release": {
      const read = await call(FULFILLMENT_ORDERS_QUERY, { id: gid(request) });
      const order = read.data.order ? obj(read.data.order) : null;
      if (!order) throw notFoundInStore(request);
      const nodes = (
        Array.isArray(obj(order.fulfillmentOrders).nodes) ? obj(order.fulfillmentOrders).nodes : []
      ) as unknown[];
      const orders = nodes.map(obj);
      if (op === "hold") {
        const handle = holdHandle(ctx.dedupeKey);
        const ours = (fo: Record<string, unknown>) =>
          Array.isArray(fo.fulfillmentHolds) && fo.fulfillmentHolds.some((h) => obj(h).handle === handle);
        const todo = orders.filter(
          (fo) => ["OPEN", "SCHEDULED", "ON_HOLD"].includes(String(fo.status)) && !ours(fo),
        );
        let held = orders.filter(ours).length;
        for (const fo of todo) {
          const { data } = await call(HOLD_MUTATION, {
            id: fo.id,
            fulfillmentHold: {
              reason: request.reason as HoldReason,
              handle,
              notifyMerchant: false,
              ...(request.reasonNotes ? { reasonNotes: request.reasonNotes } : {}),
            },
          });
          const result = obj(data.fulfillmentOrderHold);
          const errors = (Array.isArray(result.userErrors) ? result.userErrors : []) as UserError[];
          // The same handle again: this step's hold is already there.
          if (errors.length > 0 && errors.every((e) => e.code === "DUPLICATE_FULFILLMENT_HOLD_HANDLE")) {
            held++;
            continue;
          }
          failOnUserErrors(errors, { ...out, held });
          held++;
        }
        return { ...out, held, ...(orders.length === 0 || held === 0 ? { nothingToHold: true } : {}) };
      }
      let released = 0;
      for (const fo of orders.filter((f) => f.status === "ON_HOLD")) {
        const { data } = await call(RELEASE_MUTATION, { id: fo.id });
        const result = obj(data.fulfillmentOrderReleaseHold);
        failOnUserErrors(result.userErrors, { ...out, released });
        released++;
      }
      return { ...out, released };
    }
    case "metafield": {
      const { data, waitedMs } = await call(METAFIELDS_SET, {
        metafields: [
          {
            ownerId: gid(request),
            namespace: request.namespace,
            key: request.key,
            type: request.type,
            value: request.value,
          },
        ],
      });
      const result = obj(data.metafieldsSet);
      failOnUserErrors(result.userErrors, out);
      const kept = Array.isArray(result.metafields) ? obj(result.metafields[0]).value : undefined;
      return {
        ...out,
        value: typeof kept === "string" ? kept : request.value,
        ...(waitedMs ? { waitedMs } : {}),
      };
    }
  }
}

// --- WooCommerce -------------------------------------------------------------------------------

/** WooCommerce keeps tags Tillflow writes in this meta data entry (orders and customers have no tags). */
const WOO_TAGS_KEY = "tillflow_tags";

function metaValue(record: Record<string, unknown>, key: string): string | undefined {
  const meta = Array.isArray(record.meta_data) ? record.meta_data.map(obj) : [];
  const found = meta.find((m) => m.key === key);
  return found === undefined ? undefined : String(found.value ?? "");
}

async function woo(op: Op, store: Store, request: StoreRequest, ctx: ActionContext): Promise<ActionOutput> {
  const path = `/${request.target === "order" ? "orders" : "customers"}/${request.recordId}`;
  const rest = (method: "GET" | "POST" | "PUT", to: string, payload?: unknown) =>
    wooRest(store.host, store.secret, method, to, payload);
  const out: ActionOutput = { platform: "woocommerce", recordId: request.recordId };
  switch (op) {
    case "add_tags":
    case "remove_tags": {
      const record = obj(await rest("GET", path));
      const current = storeTags(metaValue(record, WOO_TAGS_KEY) ?? "");
      const tags =
        op === "add_tags"
          ? [...new Set([...current, ...request.tags!])]
          : current.filter((tag) => !request.tags!.includes(tag));
      if (tags.join(",") !== current.join(","))
        await rest("PUT", path, { meta_data: [{ key: WOO_TAGS_KEY, value: tags.join(", ") }] });
      await keepTags(ctx.tenantId, request.target, request.recordId, tags);
      return { ...out, tags };
    }
    case "note": {
      // WooCommerce's notes carry no key of ours: a note of the same words is this step's, written
      // before a worker stopped (the same words twice on one order say nothing more).
      const notes = await rest("GET", `${path}/notes`);
      const same = Array.isArray(notes) && notes.some((n) => obj(n).note === request.note);
      if (same) return { ...out, note: request.note, alreadyWritten: true };
      await rest("POST", `${path}/notes`, { note: request.note, customer_note: false });
      return { ...out, note: request.note };
    }
    case "hold":
    case "release": {
      const status = op === "hold" ? "on-hold" : "processing";
      const record = obj(await rest("PUT", path, { status }));
      return { ...out, status: record.status ?? status, [op === "hold" ? "held" : "released"]: 1 };
    }
    case "metafield": {
      const key = `${request.namespace}.${request.key}`;
      await rest("PUT", path, { meta_data: [{ key, value: request.value }] });
      return { ...out, value: request.value };
    }
  }
}

// --- executors ---------------------------------------------------------------------------------

function executor<P extends Common>(
  op: Op,
  prepare: (params: P, ctx: ActionContext) => StoreRequest,
): OutsideExecutor<P, StoreRequest> {
  return {
    effect: "outside",
    request: storeRequest,
    prepare,
    check,
    resendReason:
      "Sent again after an interruption, with the same dedupe key: the store was read first, so nothing was written twice.",
    async send(request, ctx) {
      const problem = check(request);
      if (problem) throw new ActionError(problem, {}, null);
      const store = await storeOf(ctx.tenantId, request);
      try {
        return request.platform === "shopify"
          ? await shopify(op, store, request, ctx)
          : await woo(op, store, request, ctx);
      } catch (error) {
        if (error instanceof StoreApiError) throw new ActionError(error.message, {}, error.transient);
        throw error;
      }
    },
  };
}

type TagsParams = Common & { target: Target; tags: string };

const tagsPrepare = (params: TagsParams, ctx: ActionContext): StoreRequest => ({
  ...base(params, ctx, params.target),
  tags: storeTags(ctx.render(params.tags)),
});

export const storeAddTagsExecutor = executor<TagsParams>("add_tags", tagsPrepare);
export const storeRemoveTagsExecutor = executor<TagsParams>("remove_tags", tagsPrepare);

export const storeAddOrderNoteExecutor = executor<Common & { note: string }>("note", (params, ctx) => ({
  ...base(params, ctx, "order"),
  note: ctx.render(params.note).trim(),
}));

export const storeHoldFulfillmentExecutor = executor<Common & { reason: HoldReason; reasonNotes?: string }>(
  "hold",
  (params, ctx) => ({
    ...base(params, ctx, "order"),
    reason: params.reason,
    ...(params.reasonNotes ? { reasonNotes: ctx.render(params.reasonNotes).trim() } : {}),
  }),
);

export const storeReleaseHoldExecutor = executor<Common>("release", (params, ctx) =>
  base(params, ctx, "order"),
);

export const storeSetMetafieldExecutor = executor<
  Common & {
    target: Target;
    namespace: string;
    key: string;
    type: (typeof METAFIELD_TYPES)[number];
    value: string;
  }
>("metafield", (params, ctx) => ({
  ...base(params, ctx, params.target),
  namespace: params.namespace,
  key: params.key,
  type: params.type,
  value: ctx.render(params.value),
}));
