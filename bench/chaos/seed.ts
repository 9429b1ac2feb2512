/** The chaos suite's shop: its flows (orders, approvals, a schedule fan-out), its orders and customers, and their events. */
import { createApiKey } from "@/lib/auth/api-keys";
import { resolveCaller } from "@/lib/auth/resolve-caller";
import type { Caller } from "@/lib/identity/caller";
import { createTenant } from "@/lib/auth/tenants";
import { createAutomation } from "@/lib/automations/lifecycle/create";
import { publishAutomation } from "@/lib/automations/lifecycle/publish";
import { getDb } from "@/lib/db/client";
import { entities } from "@/lib/db/schema";
import { recordEvents } from "@/lib/automations/engine/start/events";

const RETRY = { attempts: 4, backoff: "fixed", initialSeconds: 1 } as const;

export interface Flows {
  caller: Caller;
  /** An admin API key of the shop, for sending its events through the web server. */
  apiKey: string;
  tenantId: string;
  /** Order automations: the first listens to order.created, the second to order.paid. */
  orders: string[];
  approvals: string;
  fanout: string;
}

async function publish(caller: Caller, name: string, nodes: unknown[], edges: unknown[]): Promise<string> {
  const automation = await createAutomation(caller, { name, graph: { nodes, edges } });
  await publishAutomation(caller, automation.id, {});
  return automation.id;
}

/**
 * The flows, in a new shop of their own:
 *
 *   order_created or order_paid ─▶ tag(chaos) ─▶ wait 1 min ─▶ http(call, retries) ─▶ note ─▶ later(1 min, "follow")
 *   later(follow) ─▶ http(follow, retries)                       (same automation: a second run)
 *   customer_created ─▶ approval ─approved─▶ tag(approved) · ─rejected─▶ note(Rejected)
 *   schedule (run now, every customer) ─▶ tag(fanned) ─▶ http(fan, retries)
 *
 * `receiver` is the base URL the HTTP steps call.
 */
export async function createFlows(receiver: string): Promise<Flows> {
  const tenant = await createTenant({ slug: `chaos-${Date.now().toString(36)}`, name: "Chaos" });
  const { key } = await createApiKey(tenant.id, { name: "chaos", role: "admin" });
  const caller = (await resolveCaller(new Headers({ authorization: `Bearer ${key}` })))!;
  const edge = (source: string, target: string, sourceHandle = "out") => ({
    id: `${source}-${target}`,
    source,
    sourceHandle,
    target,
  });
  const httpNode = (id: string, pathName: string) => ({
    id,
    type: "auto.action.http_request",
    params: { url: `${receiver}/${pathName}`, method: "POST", body: '{"run":"{run.id}"}', retry: RETRY },
  });
  // Two automations share the orders (one listens to order.created, the other to order.paid):
  // each may have at most 1,000 later steps waiting (SPEC §2), and 1,500 orders ask for as many.
  const orderFlow = (trigger: string) => [
    { id: "t", type: trigger, params: {} },
    { id: "tag", type: "auto.action.add_tag", params: { tag: "chaos" } },
    { id: "wait", type: "auto.control.wait", params: { duration: 1, unit: "minutes" } },
    httpNode("call", "call"),
    { id: "note", type: "auto.action.add_note", params: { body: "Called for {entity.id}" } },
    {
      id: "ask",
      type: "auto.action.later",
      params: { when: "1m", step: "follow", key: "{entity.id}", then: {} },
    },
    { id: "back", type: "auto.trigger.later", params: { step: "follow" } },
    httpNode("follow", "follow"),
  ];
  const orderEdges = [
    edge("t", "tag"),
    edge("tag", "wait"),
    edge("wait", "call"),
    edge("call", "note"),
    edge("note", "ask"),
    edge("back", "follow"),
  ];
  const orders = [
    await publish(caller, "Chaos orders (created)", orderFlow("auto.trigger.order_created"), orderEdges),
    await publish(caller, "Chaos orders (paid)", orderFlow("auto.trigger.order_paid"), orderEdges),
  ];
  const approvals = await publish(
    caller,
    "Chaos approvals",
    [
      { id: "t", type: "auto.trigger.customer_created", params: {} },
      {
        id: "review",
        type: "auto.control.approval",
        params: { title: "Review", timeoutHours: 72, approverRole: "editor" },
      },
      { id: "ok", type: "auto.action.add_tag", params: { tag: "approved" } },
      { id: "no", type: "auto.action.add_note", params: { body: "Rejected" } },
    ],
    [edge("t", "review"), edge("review", "ok", "approved"), edge("review", "no", "rejected")],
  );
  const fanout = await publish(
    caller,
    "Chaos fan-out",
    [
      {
        id: "t",
        type: "auto.trigger.schedule",
        params: { cron: "0 9 1 1 *", timezone: "UTC", audience: { tagsExclude: ["nobody"] } },
      },
      { id: "tag", type: "auto.action.add_tag", params: { tag: "fanned" } },
      httpNode("fan", "fan"),
    ],
    [edge("t", "tag"), edge("tag", "fan")],
  );
  return { caller, apiKey: key, tenantId: tenant.id, orders, approvals, fanout };
}

export async function insertEntities(
  tenantId: string,
  domain: "order" | "customer",
  ids: string[],
): Promise<void> {
  const data = (i: number) =>
    domain === "order"
      ? { number: `#${i}`, status: "pending", total: 10, currency: "EUR", lineItems: [] }
      : {
          email: `c${i}@example.test`,
          name: `C ${i}`,
          ordersCount: 0,
          totalSpent: 0,
          acceptsMarketing: true,
        };
  for (let start = 0; start < ids.length; start += 1000) {
    await getDb()
      .insert(entities)
      .values(
        ids.slice(start, start + 1000).map((id, i) => ({
          tenantId,
          domain,
          id,
          data: data(start + i),
          status: domain === "order" ? "pending" : null,
          email: domain === "customer" ? `c${start + i}@example.test` : null,
          updatedAt: new Date(),
        })),
      );
  }
}

/** `<domain>.created` for each id; for orders, every other one is `order.paid` instead (see createFlows). */
export async function recordCreated(
  tenantId: string,
  domain: "order" | "customer",
  ids: string[],
): Promise<void> {
  await getDb().transaction((tx) =>
    recordEvents(
      tx,
      tenantId,
      ids.map((entityId, i) => ({
        type: domain === "order" && i % 2 === 1 ? "order.paid" : `${domain}.created`,
        domain,
        entityId,
      })),
    ),
  );
}
