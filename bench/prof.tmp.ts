import { sql } from "drizzle-orm";
import { createApiKey } from "@/lib/auth/api-keys";
import { resolveCaller } from "@/lib/auth/caller";
import { createTenant } from "@/lib/auth/tenants";
import { createAutomation, publishAutomation } from "@/lib/automations/service";
import { executeRun } from "@/lib/automations/engine/execute";
import { getDb } from "@/lib/db/client";
import { entities } from "@/lib/db/schema";
import { recordEvents } from "@/lib/events/record";
import { benchDatabase } from "@/bench/harness";

const db = await benchDatabase("prof");
const tenant = await createTenant({ slug: "bench", name: "Bench" });
const { key } = await createApiKey(tenant.id, { name: "bench", role: "admin" });
const caller = (await resolveCaller(new Headers({ authorization: `Bearer ${key}` })))!;
const a = await createAutomation(caller, {
  name: "x",
  graph: {
    nodes: [
      { id: "t", type: "auto.trigger.order_created", params: {} },
      { id: "c", type: "auto.condition.field", params: { path: "total", operator: "gt", value: 100 } },
      { id: "a", type: "auto.action.add_tag", params: { tag: "big" } },
    ],
    edges: [
      { id: "e1", source: "t", target: "c" },
      { id: "e2", source: "c", sourceHandle: "true", target: "a" },
    ],
  },
});
await publishAutomation(caller, a.id, {});
const N = 3000;
await getDb()
  .insert(entities)
  .values(
    Array.from({ length: N }, (_, i) => ({
      tenantId: tenant.id,
      domain: "order",
      id: `o${i}`,
      data: { number: "1", status: "pending", total: 150, currency: "EUR", lineItems: [] },
      status: "pending",
      updatedAt: new Date(),
    })),
  );
await getDb().transaction((tx) =>
  recordEvents(
    tx,
    tenant.id,
    Array.from({ length: N }, (_, i) => ({
      type: "order.created",
      domain: "order",
      entityId: `o${i}`,
      payload: { status: "pending" },
    })),
  ),
);
const runs = await getDb().execute<{ id: string }>(sql`select id from automation_runs`);
let t = performance.now();
for (const r of runs.slice(0, 50)) await executeRun(r.id);
console.log("sequential ms/run", (performance.now() - t) / 50);
t = performance.now();
const rest = runs.slice(50);
await Promise.all(
  Array.from({ length: 16 }, async (_, w) => {
    for (let i = w; i < rest.length; i += 16) await executeRun(rest[i]!.id);
  }),
);
console.log(
  "16-way ms/run",
  (performance.now() - t) / rest.length,
  "runs/s",
  rest.length / ((performance.now() - t) / 1000),
);
await db.drop();
process.exit(0);
