import crypto from "node:crypto";
import { setImmediate as nextTurn } from "node:timers/promises";
import { sql } from "drizzle-orm";
import { getDb, type Tx } from "@/lib/db/client";
import { executePrepared } from "@/lib/db/prepared";
import type { DeliveryResult } from "@/lib/db/schema";
import { DOMAIN_LABELS } from "@/lib/domains/domains";
import { type SourceOptions, upsertFromSource } from "@/lib/entities/service";
import { AppError } from "@/lib/errors";
import { unsubscribe } from "@/lib/consent/store";
import { keepAttributes } from "./attributes";
import { mapBody } from "./map-body";
import type { Mapped, RelatedCustomer } from "./mapped";
import { PLATFORM_LABELS, type Platform } from "./platforms";

/**
 * How long one statement of a delivery's transaction may run. Each is an indexed lookup or a write
 * of one record (a few ms); one held up for 10 s (a lock, a plan gone wrong) fails this delivery,
 * whose job retries with backoff, instead of holding a worker and a connection for every shop.
 */
export const DELIVERY_STATEMENT_TIMEOUT = "10s";

/** The most left-out field names a delivery's reason lists; the rest are counted. */
const LISTED_LEFT_OUT = 20;

interface Outcome {
  result: Exclude<DeliveryResult, "received" | "duplicate">;
  reason: string | null;
  domain?: string;
  entityId?: string;
}

/**
 * Applies one received delivery (the `connection_delivery` job): reads it in its platform's shape
 * and upserts the record through the same path as `PUT /api/v1/entities`, so the same events and
 * runs start — all in one transaction with the delivery's result, so a worker killed at any line
 * leaves it `received` and the job's retry does it once. A delivery already processed is left as
 * it is.
 */
export async function processDelivery(deliveryId: string): Promise<void> {
  await getDb().transaction(async (tx) => {
    // Prepared (lib/db/prepared.ts): the two statements every delivery makes, one round trip each.
    // The time limit is sent in the same round trip (postgres.js pipelines a transaction's queries
    // in order), so it holds from the first statement on.
    const [, [delivery]] = await Promise.all([
      tx.execute(sql.raw(`set local statement_timeout = '${DELIVERY_STATEMENT_TIMEOUT}'`)),
      executePrepared<{
        tenantId: string;
        topic: string;
        body: string;
        platform: Platform;
        name: string;
      }>(
        // The body as text: a large one is parsed on the delivery thread, not here (map-body.ts).
        sql`select d.tenant_id as "tenantId", d.topic, d.body::text as body, c.platform, c.name
          from connection_deliveries d join store_connections c on c.id = d.connection_id
          where d.id = ${deliveryId}::uuid and d.result = 'received'
          for update of d`,
        tx,
      ),
    ]);
    if (!delivery) return;
    const author = `${PLATFORM_LABELS[delivery.platform].label} · ${delivery.name}`;
    const mapped = await mapBody(delivery.platform, delivery.topic, delivery.body);
    // What was read of a large body can still be 60,000 field names long: a turn of the event loop
    // before it is applied lets every other job's I/O through.
    await nextTurn();
    const outcome = await apply(tx, delivery.tenantId, mapped, author);
    await executePrepared(
      sql`update connection_deliveries
        set result = ${outcome.result}, reason = ${outcome.reason}, domain = ${outcome.domain ?? null},
            entity_id = ${outcome.entityId ?? null}, processed_at = clock_timestamp()
        where id = ${deliveryId}::uuid`,
      tx,
    );
  });
}

async function apply(tx: Tx, tenantId: string, mapped: Mapped, author: string): Promise<Outcome> {
  if (mapped.kind === "refused") return { result: "refused", reason: mapped.reason };
  if (mapped.kind === "inventory") return applyInventory(tx, tenantId, mapped, author);
  const options = { startRuns: mapped.test ? mapped.test.runAutomations : true };
  const { attributes, ...known } = mapped.data;
  // The mapper kept its attributes under 64 KB already; a stock level's product (applyInventory)
  // may have grown past it by a digit. Cheap either way: at most 64 KB of fields.
  const again = keepAttributes(
    typeof attributes === "object" && attributes !== null ? (attributes as Record<string, unknown>) : {},
  );
  const kept = again.kept;
  const leftOut = [...mapped.leftOut, ...again.leftOut];
  const where = { domain: mapped.domain, entityId: mapped.id };
  // A record the store sent that our schema refuses is listed with the 422's words. It is refused
  // before anything is written, so the transaction goes on to record that.
  try {
    // The customer first (its row lock before the order's, as every delivery takes them), so the
    // order is linked to the record it names and its runs find the customer in the same commit.
    const customer = mapped.customer
      ? await applyCustomer(tx, tenantId, mapped.customer, author, options)
      : null;
    const data = customer?.id ? { ...known, customerId: customer.id } : known;
    const written = await upsertFromSource(
      tx,
      tenantId,
      { ...mapped, data: { ...data, attributes: kept }, author },
      options,
    );
    if (!written.stale && mapped.domain === "customer" && mapped.data.acceptsMarketing === false)
      await unsubscribe(tx, tenantId, mapped.id, "store", mapped.sourceUpdatedAt);
    if (written.stale)
      return {
        result: "stale",
        reason: "The record already holds a later version from the store; this older one changed nothing.",
        ...where,
      };
    // "order.status_changed" reads as "order status changed".
    const fired = written.events.map((e) => e.type.replace(/[._]/g, " ")).join(", ");
    const what = DOMAIN_LABELS[mapped.domain].one;
    const notes = [
      written.created ? `Created the ${what}` : `Updated the ${what}`,
      fired ? `; events: ${fired}.` : "; nothing in it changed.",
      customer ? ` ${customer.said}` : "",
      mapped.test
        ? mapped.test.runAutomations
          ? " A test delivery: automations ran as asked."
          : " A test delivery: no automation ran."
        : "",
      leftOut.length > 0 ? ` Left out of its attributes to keep them under 64 KB: ${listed(leftOut)}.` : "",
    ];
    return { result: "applied", reason: notes.join(""), ...where };
  } catch (error) {
    // A 409 (the record created at the same moment by another delivery) is retried by the job.
    if (error instanceof AppError && (error.status === 400 || error.status === 422)) {
      const details = error.issues?.map((i) => `${i.path}: ${i.message}`).join("; ");
      return {
        result: "refused",
        reason: details ? `${error.message} (${details})` : error.message,
        ...where,
      };
    }
    throw error;
  }
}

/** Where a guest's record is kept (a customer the store names no id for): by their email. */
function guestId(mail: string): string {
  return `guest-${crypto.createHash("sha256").update(mail.toLowerCase()).digest("hex").slice(0, 32)}`;
}

/**
 * Stores the customer an order or a cart tells of, in the delivery's transaction: the record with
 * the store's id, else the shop's customer with that email (a guest, or one kept before under
 * another id), else a new one — its fields merged over what the record holds, unless the record
 * holds a later version by the store's clock (then it is left as it is, and still linked). A
 * customer our schema refuses is left out and said so; the order is applied all the same.
 */
async function applyCustomer(
  tx: Tx,
  tenantId: string,
  related: RelatedCustomer,
  author: string,
  options: SourceOptions,
): Promise<{ id: string | null; said: string }> {
  const found = await customerIdFor(tx, tenantId, related);
  try {
    const written = await upsertFromSource(
      tx,
      tenantId,
      {
        domain: "customer",
        id: found,
        data: related.data,
        tags: related.tags,
        sourceUpdatedAt: related.sourceUpdatedAt,
        author,
      },
      { ...options, merge: true },
    );
    if (written.stale)
      return { id: found, said: "Its customer holds a later version from the store; left as it is." };
    // The store says they take no marketing (Shopify's `accepts_marketing: false`, or their email
    // marketing consent unsubscribed): unsubscribed, "in the connected store" (lib/consent).
    if (related.data.acceptsMarketing === false)
      await unsubscribe(tx, tenantId, found, "store", related.sourceUpdatedAt);
    return { id: found, said: written.created ? "Created its customer." : "Updated its customer." };
  } catch (error) {
    if (error instanceof AppError && (error.status === 400 || error.status === 422)) {
      const details = error.issues?.map((i) => `${i.path}: ${i.message}`).join("; ");
      return { id: null, said: `Its customer was not stored: ${details ?? error.message}.` };
    }
    throw error;
  }
}

/** The store's id when a record has it, else the shop's customer with the email, else a new record's id. */
async function customerIdFor(tx: Tx, tenantId: string, related: RelatedCustomer): Promise<string> {
  if (related.id && (await customerExists(tx, tenantId, related.id))) return related.id;
  return (await customerByEmail(tx, tenantId, related.email)) ?? related.id ?? guestId(related.email);
}

async function customerExists(tx: Tx, tenantId: string, id: string): Promise<boolean> {
  const rows = await executePrepared<{ one: number }>(
    sql`select 1 as one from entities where tenant_id = ${tenantId}::uuid and domain = 'customer' and id = ${id}`,
    tx,
  );
  return rows.length > 0;
}

/** The shop's customer with this email (`entities_email_idx`), the earliest kept if several. */
async function customerByEmail(tx: Tx, tenantId: string, mail: string): Promise<string | null> {
  const [row] = await executePrepared<{ id: string }>(
    sql`select id from entities
      where tenant_id = ${tenantId}::uuid and domain = 'customer' and email = ${mail.toLowerCase()}
      order by created_at, id limit 1`,
    tx,
  );
  return row?.id ?? null;
}

/** "a, b, c and 59,980 more": a reason stays short however many fields a body had. */
function listed(names: string[]): string {
  if (names.length <= LISTED_LEFT_OUT) return names.join(", ");
  const more = names.length - LISTED_LEFT_OUT;
  return `${names.slice(0, LISTED_LEFT_OUT).join(", ")} and ${more.toLocaleString("en-US")} more`;
}

/** The expression entities_inventory_items_idx indexes, word for word (or the index goes unused). */
const VARIANT_ITEM_IDS = sql.raw(
  `jsonb_path_query_array(data -> 'attributes' -> 'variants', '$[*].inventory_item_id')`,
);

/**
 * Shopify's inventory levels name an inventory item, not a product: the product holding that
 * item among its variants (as its products webhook sent them) gets the variant's new quantity,
 * and its stock is the sum again — so a low-stock flow fires as for a PUT. A level has a clock of
 * its own (issue 47): one older than the last level applied for its item and location, or than the
 * product's own `updated_at` (whose body already counted it), changes nothing and is `stale`.
 */
async function applyInventory(
  tx: Tx,
  tenantId: string,
  level: Extract<Mapped, { kind: "inventory" }>,
  author: string,
): Promise<Outcome> {
  const item = Number(level.inventoryItemId);
  const holds = (id: number | string) => JSON.stringify([{ inventory_item_id: id }]);
  // Candidates by entities_inventory_items_idx (the variants' item ids), then the containment test
  // that decides. Materialized, so the outer `limit`-like pick (the least id) cannot lead the planner
  // into a sequential scan that hopes to stop early; at most one product holds an item.
  const [product] = await tx.execute<{
    id: string;
    data: Record<string, unknown>;
    tags: string[];
    /** The product's body is later than the level (it counted the level already). */
    later: boolean;
  }>(sql`
    with held as materialized (
      select id from entities
      where tenant_id = ${tenantId}::uuid and domain = 'product'
        and (${VARIANT_ITEM_IDS} @> ${JSON.stringify([item])}::jsonb
              and data->'attributes'->'variants' @> ${holds(item)}::jsonb
          or ${VARIANT_ITEM_IDS} @> ${JSON.stringify([level.inventoryItemId])}::jsonb
              and data->'attributes'->'variants' @> ${holds(level.inventoryItemId)}::jsonb)
    )
    select id, data, tags,
      coalesce(source_updated_at > ${level.sourceUpdatedAt?.toISOString() ?? null}::timestamptz, false) as later
    from entities
    where tenant_id = ${tenantId}::uuid and domain = 'product' and id = (select min(id) from held)`);
  if (!product)
    return {
      result: "refused",
      reason: `No product here has the inventory item ${level.inventoryItemId}: Tillflow learns a product's variants from its products/create and products/update webhooks — add those so stock levels find their product.`,
    };
  if (product.later || (level.sourceUpdatedAt && !(await levelIsLatest(tx, tenantId, level))))
    return {
      result: "stale",
      reason:
        "The product already holds a later stock level for this item (or a later version of the product) from the store; this older one changed nothing.",
      domain: "product",
      entityId: product.id,
    };
  const attributes = (product.data.attributes ?? {}) as Record<string, unknown>;
  const variants = (Array.isArray(attributes.variants) ? attributes.variants : []).map((v: unknown) => {
    const variant = (typeof v === "object" && v !== null ? v : {}) as Record<string, unknown>;
    return String(variant.inventory_item_id) === level.inventoryItemId
      ? { ...variant, inventory_quantity: level.available }
      : variant;
  });
  const inventory = variants.reduce<number>((sum, v) => {
    const quantity = Number(v.inventory_quantity);
    return sum + (Number.isFinite(quantity) ? Math.trunc(quantity) : 0);
  }, 0);
  return apply(
    tx,
    tenantId,
    {
      kind: "record",
      domain: "product",
      id: product.id,
      data: { ...product.data, inventory, attributes: { ...attributes, variants } },
      tags: [],
      // A level has its own clock, not the product's: it is not compared with the product's.
      sourceUpdatedAt: null,
      leftOut: [],
    },
    author,
  );
}

/**
 * True when `level` is not older than the last level applied for its item at its location, whose
 * clock it then takes — one indexed upsert, whose row lock also puts two levels of the same item in
 * turn (the later-committed one sees the other's clock). An equal time is applied, as for records:
 * two changes in the same second.
 */
async function levelIsLatest(
  tx: Tx,
  tenantId: string,
  level: Extract<Mapped, { kind: "inventory" }>,
): Promise<boolean> {
  const at = level.sourceUpdatedAt!;
  const taken = await tx.execute<{ taken: number }>(sql`
    insert into inventory_level_clocks as clock (tenant_id, inventory_item_id, location_id, source_updated_at)
    values (${tenantId}::uuid, ${level.inventoryItemId}, ${level.locationId}, ${at.toISOString()}::timestamptz)
    on conflict (tenant_id, inventory_item_id, location_id)
      do update set source_updated_at = excluded.source_updated_at
      where clock.source_updated_at <= excluded.source_updated_at
    returning 1 as taken`);
  return taken.length > 0;
}
