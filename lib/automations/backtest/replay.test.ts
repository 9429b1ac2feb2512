import { describe, expect, test } from "vitest";
import type { Graph } from "@/lib/automations/graph/schema";
import type { RunEvent } from "@/lib/db/schema";
import type { PastRun, PastWait } from "./history";
import { MAX_POSSIBLE_PATHS, replayRun } from "./replay";

/*
 * How a replay ends each wait (no database: the walk describes, and a tag is an inside action).
 *
 *   t ──▶ a1 ──approved──▶ a2 ──approved──▶ a3 ──approved──▶ a4 ──approved──▶ tag     (a1…a4: approvals)
 *            └─rejected──▶ no
 */
const approval = (id: string) => ({
  id,
  type: "auto.control.approval",
  params: { title: "OK?", timeoutHours: 24, approverRole: "editor" },
});
const graph: Graph = {
  nodes: [
    { id: "t", type: "auto.trigger.webhook", params: {} },
    approval("a1"),
    approval("a2"),
    approval("a3"),
    approval("a4"),
    { id: "tag", type: "auto.action.add_tag", params: { tag: "ok" } },
    { id: "no", type: "auto.action.add_tag", params: { tag: "no" } },
  ],
  edges: [
    { id: "e1", source: "t", sourceHandle: "out", target: "a1" },
    { id: "e2", source: "a1", sourceHandle: "approved", target: "a2" },
    { id: "e3", source: "a1", sourceHandle: "rejected", target: "no" },
    { id: "e4", source: "a2", sourceHandle: "approved", target: "a3" },
    { id: "e5", source: "a3", sourceHandle: "approved", target: "a4" },
    { id: "e6", source: "a4", sourceHandle: "approved", target: "tag" },
  ],
} as Graph;

const event: RunEvent = {
  id: "ev",
  type: "webhook.received",
  domain: "webhook",
  entityId: null,
  entityStatus: null,
  payload: {},
  occurredAt: new Date().toISOString(),
};
const of = {
  tenantId: "00000000-0000-4000-8000-000000000000",
  timeZone: "UTC",
  automation: { id: "a", name: "A", version: 1 },
};
const run = (waits: Record<string, Partial<PastWait>> = {}): PastRun => ({
  id: "r",
  tenantId: of.tenantId,
  triggerNodeId: "t",
  event,
  status: "succeeded",
  then: ["t"],
  conditions: [],
  waits: new Map(
    Object.entries(waits).map(([nodeId, w]) => [
      nodeId,
      { kind: "approval", status: "resumed", wentOn: true, decision: null, wokenEvent: null, ...w },
    ]),
  ),
  retrying: false,
});

describe("replayRun", () => {
  test("approvals the run had end with its decisions; one still pending stops the walk", async () => {
    const decided = await replayRun(
      of,
      graph,
      run({
        a1: { decision: "approved" },
        a2: { decision: "approved" },
        a3: { status: "pending", wentOn: false },
      }),
      null,
      null,
    );
    expect(decided.possible).toEqual([["t", "a1", "a2", "a3"]]);
    expect(decided.undecided).toEqual([]);
    const rejected = await replayRun(of, graph, run({ a1: { decision: "rejected" } }), null, null);
    expect(rejected.possible).toEqual([["t", "a1", "no"]]);
    // Timed out: no decision, and nothing drawn from 'timed_out'.
    expect((await replayRun(of, graph, run({ a1: {} }), null, null)).possible).toEqual([["t", "a1"]]);
  });

  test("approvals it never had: every way each could go, at most MAX_POSSIBLE_PATHS paths", async () => {
    const one = await replayRun(
      of,
      graph,
      run({ a1: { decision: "approved" }, a2: { decision: "approved" }, a3: { decision: "approved" } }),
      null,
      null,
    );
    expect(one.possible).toEqual([
      ["t", "a1", "a2", "a3", "a4", "tag"],
      ["t", "a1", "a2", "a3", "a4"],
      ["t", "a1", "a2", "a3", "a4"],
    ]);
    expect(one.undecided).toEqual(["a4"]);

    const many = await replayRun(of, graph, run(), null, null);
    // Four approvals it never had make 9 possible paths, more than the cap: the first ones are walked, and it says so.
    expect(many.possible).toHaveLength(MAX_POSSIBLE_PATHS);
    expect(many.possible[0]).toEqual(["t", "a1", "a2", "a3", "a4", "tag"]);
    expect(many.possible).toContainEqual(["t", "a1", "no"]);
    expect(many.undecided).toEqual(["a1", "a2", "a3", "a4"]);
    expect(many.notes.join(" ")).toContain(`only its first ${MAX_POSSIBLE_PATHS} possible paths`);
  });
});
