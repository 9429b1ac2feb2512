import { sql } from "drizzle-orm";
import { expect } from "vitest";
import { POST as createRoute } from "@/app/api/v1/automations/route";
import { PUT as draftRoute } from "@/app/api/v1/automations/[id]/draft/route";
import { POST as publishRoute } from "@/app/api/v1/automations/[id]/publish/route";
import { getDb } from "@/lib/db/client";
import type { RunStatus } from "@/lib/db/schema";
import { call } from "./fixtures";
import { TERMINAL, until } from "./poll";

export interface FlowNode {
  id: string;
  type: string;
  params?: Record<string, unknown>;
}

/** Builds a graph from nodes and `[source, target, handle?]` edges. */
export function flow(nodes: FlowNode[], edges: [string, string, string?][]) {
  return {
    nodes: nodes.map((n) => ({ id: n.id, type: n.type, params: n.params ?? {} })),
    edges: edges.map(([source, target, handle], i) => ({
      id: `e${i}`,
      source,
      target,
      sourceHandle: handle ?? "out",
    })),
  };
}

//  order_created ──▶ Wait <duration> ──▶ add_tag(<tag>)
export const waitThenTag = (
  tag: string,
  wait: { duration: number; unit: string } = { duration: 2, unit: "days" },
) =>
  flow(
    [
      { id: "t", type: "auto.trigger.order_created" },
      { id: "w", type: "auto.control.wait", params: wait },
      { id: "tag", type: "auto.action.add_tag", params: { tag } },
    ],
    [
      ["t", "w"],
      ["w", "tag"],
    ],
  );

/** Saves `graph` with `policy` as the draft and publishes it as the next version, through the API. */
export async function republish(key: string, id: string, graph: unknown, policy: string) {
  const saved = await call(draftRoute, {
    method: "PUT",
    key,
    params: { id },
    body: { graph, inFlightPolicy: policy },
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  const published = await call(publishRoute, { method: "POST", key, params: { id } });
  expect(published.status, JSON.stringify(published.body)).toBe(200);
}

/** Creates and publishes an automation through the API; fails the test if either step is refused. */
export async function publishFlow(
  key: string,
  name: string,
  graph: unknown,
  extra: Record<string, unknown> = {},
) {
  const created = await call<{ id: string }>(createRoute, {
    method: "POST",
    key,
    body: { name, graph, ...extra },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const published = await call<{ automation: { version: number } }>(publishRoute, {
    method: "POST",
    key,
    params: { id: created.body.id },
    body: { note: "first version" },
  });
  expect(published.status, JSON.stringify(published.body)).toBe(200);
  return created.body.id;
}

/** Waits until every run of an automation has ended (or `count` runs exist and ended). */
export async function settledRuns(automationId: string, count = 1, timeout = 15_000) {
  return until(
    () =>
      getDb().execute<{ id: string; status: RunStatus; error: string | null; reason: string | null }>(
        sql`select id, status, error, reason from automation_runs where automation_id = ${automationId} order by created_at`,
      ),
    (runs) => runs.length >= count && runs.every((r) => TERMINAL.includes(r.status)),
    { timeoutMs: timeout, intervalMs: 100, what: `${count} run(s) of ${automationId} to end` },
  );
}
