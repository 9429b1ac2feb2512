import { eq, sql } from "drizzle-orm";
import { beforeAll, expect, test } from "vitest";
import { pruneDeliveries } from "@/lib/connections/prune";
import { getDb } from "@/lib/db/client";
import { connectionDeliveries } from "@/lib/db/schema";
import { getEntity } from "@/lib/entities/service";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { connectStore, deliver, processedDelivery, type Connection } from "@/tests/helpers/stores";
import { workerForFile } from "@/tests/helpers/worker";

let shop: TestShop;
let store: Connection;

beforeAll(async () => {
  shop = await createShop();
  store = await connectStore(shop.keys.editor, "shopify");
});
workerForFile();

test("deliveries older than 30 days are deleted; newer ones and the records they made stay", async () => {
  const send = async (id: number) => {
    const reply = await deliver("shopify", store, {
      topic: "orders/create",
      body: { id, name: `#${id}`, currency: "EUR", total_price: "3.00" },
      deliveryId: `prune-${id}`,
    });
    return processedDelivery(shop.keys.viewer, store, reply.body.id!);
  };
  const old = await send(501);
  const recent = await send(502);
  await getDb().execute(
    sql`update connection_deliveries set received_at = now() - interval '31 days' where id = ${old.id}`,
  );
  await getDb().execute(
    sql`update connection_deliveries set received_at = now() - interval '29 days' where id = ${recent.id}`,
  );
  expect(await pruneDeliveries()).toBeGreaterThanOrEqual(1);
  const left = await getDb()
    .select({ id: connectionDeliveries.id })
    .from(connectionDeliveries)
    .where(eq(connectionDeliveries.connectionId, store.id));
  expect(left.map((r) => r.id)).toEqual([recent.id]);
  // The order the old delivery made is the shop's record, not the delivery's.
  expect(await getEntity(shop.tenant.id, "order", "501")).toMatchObject({ number: "#501" });
});
