import { and, eq, sql } from "drizzle-orm";
import { getDb, type Tx } from "@/lib/db/client";
import { executePrepared } from "@/lib/db/prepared";
import { entities, type DeliveryResult } from "@/lib/db/schema";
import { DOMAIN_LABELS } from "@/lib/domains/domains";
import { upsertFromSource } from "@/lib/entities/service";
import { AppError } from "@/lib/errors";
import { keepAttributes } from "./attributes";
import type { Mapped } from "./mapped";
import { PLATFORM_LABELS, type Platform } from "./platforms";
import { mapShopify } from "./shopify";
import { mapWooCommerce } from "./woocommerce";

const MAPPERS: Record<Platform, (topic: string, body: unknown) => Mapped> = {
  shopify: mapShopify,
  woocommerce: mapWooCommerce,
};

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
    const [delivery] = await executePrepared<{
      tenantId: string;
      topic: string;
      body: unknown;
      platform: Platform;
      name: string;
    }>(
      sql`select d.tenant_id as "tenantId", d.topic, d.body, c.platform, c.name
        from connection_deliveries d join store_connections c on c.id = d.connection_id
        where d.id = ${deliveryId}::uuid and d.result = 'received'
        for update of d`,
      tx,
    );
    if (!delivery) return;
    const author = `${PLATFORM_LABELS[delivery.platform].label} · ${delivery.name}`;
    const mapped = MAPPERS[delivery.platform](delivery.topic, delivery.body);
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
  const { attributes, ...known } = mapped.data;
  const { kept, leftOut } = keepAttributes(
    typeof attributes === "object" && attributes !== null ? (attributes as Record<string, unknown>) : {},
  );
  const where = { domain: mapped.domain, entityId: mapped.id };
  // A record the store sent that our schema refuses is listed with the 422's words. It is refused
  // before anything is written, so the transaction goes on to record that.
  try {
    const written = await upsertFromSource(tx, tenantId, {
      ...mapped,
      data: { ...known, attributes: kept },
      author,
    });
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
      leftOut.length > 0
        ? ` Left out of its attributes to keep them under 64 KB: ${leftOut.join(", ")}.`
        : "",
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

/**
 * Shopify's inventory levels name an inventory item, not a product: the product holding that
 * item among its variants (as its products webhook sent them) gets the variant's new quantity,
 * and its stock is the sum again — so a low-stock flow fires as for a PUT.
 */
async function applyInventory(
  tx: Tx,
  tenantId: string,
  level: Extract<Mapped, { kind: "inventory" }>,
  author: string,
): Promise<Outcome> {
  const item = Number(level.inventoryItemId);
  const [product] = await tx
    .select({ id: entities.id, data: entities.data, tags: entities.tags })
    .from(entities)
    .where(
      and(
        eq(entities.tenantId, tenantId),
        eq(entities.domain, "product"),
        sql`(${entities.data}->'attributes'->'variants' @> ${JSON.stringify([{ inventory_item_id: item }])}::jsonb
          or ${entities.data}->'attributes'->'variants' @> ${JSON.stringify([{ inventory_item_id: level.inventoryItemId }])}::jsonb)`,
      ),
    )
    .limit(1);
  if (!product)
    return {
      result: "refused",
      reason: `No product here has the inventory item ${level.inventoryItemId}: Tillflow learns a product's variants from its products/create and products/update webhooks — add those so stock levels find their product.`,
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
    },
    author,
  );
}
