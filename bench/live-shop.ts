/**
 * Setting a shop up through the public API, for `bench -- live` and the live smoke: orders by PUT
 * (`<prefix>0` … `<prefix>N-1`, each €25), flows by POST and publish.
 */
import type { HttpClient } from "./live-load";

/** Creates or replaces `count` pending orders, `concurrency` requests at a time. */
export async function putOrders(client: HttpClient, prefix: string, count: number, concurrency: number) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        await client.expect("PUT", `/api/v1/entities/order/${prefix}${i}`, [200, 201], {
          number: `#${prefix}${i}`,
          status: "pending",
          total: 25,
          currency: "EUR",
          lineItems: [],
        });
      }
    }),
  );
}

/** The live benches' measured flow: order_fulfilled ──▶ total > 10 ──true──▶ add_tag(live). */
export const TAG_FULFILLED_FLOW = {
  nodes: [
    { id: "t", type: "auto.trigger.order_fulfilled", params: {} },
    { id: "c", type: "auto.condition.field", params: { path: "total", operator: "gt", value: 10 } },
    { id: "a", type: "auto.action.add_tag", params: { tag: "live" } },
  ],
  edges: [
    { id: "e1", source: "t", target: "c" },
    { id: "e2", source: "c", sourceHandle: "true", target: "a" },
  ],
};

/** Creates an automation with `graph` and publishes it; returns its id. */
export async function publishFlow(client: HttpClient, name: string, graph: object): Promise<string> {
  const { id } = await client.expect<{ id: string }>("POST", "/api/v1/automations", [201], { name, graph });
  await client.expect("POST", `/api/v1/automations/${id}/publish`, [200], { note: name });
  return id;
}
