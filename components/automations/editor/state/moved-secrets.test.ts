import { beforeAll, describe, expect, test, vi } from "vitest";
import { POST as createAutomationRoute } from "@/app/api/v1/automations/route";
import { saveDraftAction } from "@/lib/actions/automations/save-draft";
import type { StepNode } from "@/lib/automations/editor/flow";
import type { Graph } from "@/lib/automations/graph/schema";
import { listCredentials } from "@/lib/credentials/store";
import { call } from "@/tests/helpers/fixtures";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { flow } from "@/tests/helpers/flows";
import { adoptMovedSecrets } from "./moved-secrets";

// The action reads the caller from the request headers; here they carry an API key.
const request = vi.hoisted(() => ({ headers: new Headers() }));
vi.mock("next/headers", () => ({ headers: async () => request.headers }));
vi.mock("next/cache", () => ({ refresh: () => {}, revalidatePath: () => {} }));

let shop: TestShop;
beforeAll(async () => {
  shop = await createShop();
  request.headers = new Headers({ authorization: `Bearer ${shop.keys.editor}` });
});

//  order_paid ──▶ Send HTTP request (Authorization typed in)
const typed = (headers: Record<string, string>, extra: Record<string, unknown> = {}) =>
  flow(
    [
      { id: "t", type: "auto.trigger.order_paid" },
      { id: "call", type: "auto.action.http_request", params: { url: "https://x.test", headers, ...extra } },
    ],
    [["t", "call"]],
  );

/** The editor's nodes for a graph (as `toFlow` makes them; only `data.params` matters here). */
const stepNodes = (graph: Graph): StepNode[] =>
  graph.nodes.map((n) => ({
    id: n.id,
    type: "action",
    position: { x: 0, y: 0 },
    data: { type: n.type, params: n.params },
  }));

describe("autosave and typed-in secrets", () => {
  test("the editor adopts the reference, so saving again stores no second credential", async () => {
    const created = await call<{ id: string; draftRevision: number }>(createAutomationRoute, {
      method: "POST",
      key: shop.keys.editor,
      body: { name: "Typed", graph: flow([{ id: "t", type: "auto.trigger.order_paid" }], []) },
    });
    expect(created.status).toBe(201);
    const sent = typed({ Authorization: "Bearer pasted-9Q2z", "X-Shop": "demo" });
    const first = await saveDraftAction({
      id: created.body.id,
      baseRevision: created.body.draftRevision,
      graph: sent,
    });
    if (!first.ok) throw new Error(first.error);
    const moved = first.data.movedSecrets;
    expect(Object.keys(moved)).toEqual(["call"]);
    expect(moved.call).toMatchObject({
      headers: { "X-Shop": "demo" },
      auth: { credentialId: expect.any(String) },
    });

    // What the editor holds after adopting: the reference, not the secret.
    const nodes = adoptMovedSecrets(stepNodes(sent), moved, sent);
    const call_ = nodes.find((n) => n.id === "call")!;
    expect(call_.data.params).toEqual(moved.call);
    expect(nodes.find((n) => n.id === "t")!.data.params).toEqual({});

    const again = await saveDraftAction({
      id: created.body.id,
      baseRevision: first.data.draftRevision,
      // The adopted step, edited once more.
      graph: {
        ...sent,
        nodes: sent.nodes.map((n) =>
          n.id === "call" ? { ...n, params: { ...call_.data.params, headers: { "X-Shop": "demo-2" } } } : n,
        ),
      },
    });
    expect(again).toMatchObject({ ok: true, data: { movedSecrets: {} } });
    const stored = (await listCredentials(shop.tenant.id)).filter((c) => c.name.startsWith("Typed"));
    expect(stored.map((c) => [c.name, c.last4])).toEqual([["Typed: Authorization", "9Q2z"]]);
  });

  test("a step edited since the save was sent keeps its newer params", () => {
    const sent = typed({ Authorization: "Bearer partial" });
    const newer = typed({ Authorization: "Bearer partial-and-more" });
    const saved = { call: { url: "https://x.test", headers: {}, auth: { credentialId: "c1" } } };
    const nodes = adoptMovedSecrets(stepNodes(newer), saved, sent);
    expect(nodes.find((n) => n.id === "call")!.data.params).toEqual(newer.nodes[1]!.params);
  });
});
