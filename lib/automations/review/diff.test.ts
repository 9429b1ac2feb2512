import { describe, expect, test } from "vitest";
import type { Graph } from "@/lib/automations/graph/schema";
import { describeDiff, diffGraphs, sameValue } from "./diff";

//  before:  t (order_paid) ──▶ tag (add_tag vip) ──▶ note
//  after:   t (order_paid) ──▶ tag (add_tag gold) ──▶ wait (2 days) ──▶ mail
//           (note removed; tag moved on the canvas)
const before: Graph = {
  nodes: [
    { id: "t", type: "auto.trigger.order_paid", params: {}, position: { x: 0, y: 0 } },
    { id: "tag", type: "auto.action.add_tag", params: { tag: "vip" }, position: { x: 0, y: 100 } },
    { id: "note", type: "auto.action.add_note", params: { body: "Paid" } },
  ],
  edges: [
    { id: "e1", source: "t", sourceHandle: "out", target: "tag" },
    { id: "e2", source: "tag", sourceHandle: "out", target: "note" },
  ],
};

const after: Graph = {
  nodes: [
    { id: "t", type: "auto.trigger.order_paid", params: {}, position: { x: 0, y: 0 } },
    { id: "tag", type: "auto.action.add_tag", params: { tag: "gold" }, position: { x: 300, y: 120 } },
    { id: "wait", type: "auto.control.wait", params: { duration: 2, unit: "days" } },
    { id: "mail", type: "auto.action.send_email", params: { subject: "Hi", body: "Thanks" } },
  ],
  edges: [
    { id: "renamed", source: "t", sourceHandle: "out", target: "tag" },
    { id: "e3", source: "tag", sourceHandle: "out", target: "wait" },
    { id: "e4", source: "wait", sourceHandle: "out", target: "mail" },
  ],
};

describe("diffGraphs", () => {
  test("added, removed, changed nodes and connections; moves and edge ids are not changes", () => {
    const diff = diffGraphs(before, after);
    expect(diff.added.map((n) => [n.nodeId, n.label, n.summary])).toEqual([
      ["wait", "Wait", "Wait 2 days"],
      ["mail", "Send email", "Email the order's email: 'Hi'"],
    ]);
    expect(diff.removed).toEqual([
      { nodeId: "note", type: "auto.action.add_note", label: "Add note", summary: "Add note 'Paid'" },
    ]);
    expect(diff.changed).toEqual([
      {
        nodeId: "tag",
        type: "auto.action.add_tag",
        label: "Add tag",
        summary: "Add tag 'gold'",
        summaryBefore: "Add tag 'vip'",
        params: [{ key: "tag", before: "vip", after: "gold" }],
        typeChanged: false,
      },
    ]);
    expect(diff.edgesAdded.map((e) => e.id)).toEqual(["e3", "e4"]);
    expect(diff.edgesRemoved.map((e) => e.id)).toEqual(["e2"]);
    expect(diff.isEmpty).toBe(false);
  });

  test("the same graph, moved around and with params in another order, is no change", () => {
    const moved: Graph = {
      nodes: after.nodes.map((n) => ({
        ...n,
        position: { x: 5, y: 5 },
        params: Object.fromEntries(Object.entries(n.params).reverse()),
      })),
      edges: after.edges.map((e) => ({ ...e, id: `x${e.id}` })),
    };
    const diff = diffGraphs(after, moved);
    expect(diff.isEmpty).toBe(true);
    expect(describeDiff(diff)).toEqual([]);
  });

  test("a new automation: everything is added", () => {
    const diff = diffGraphs(null, before);
    expect(diff.added).toHaveLength(3);
    expect(diff.edgesAdded).toHaveLength(2);
    expect(diff.removed).toEqual([]);
  });

  test("a node whose type changed, and an unknown type", () => {
    const diff = diffGraphs(
      { nodes: [{ id: "x", type: "auto.action.add_tag", params: { tag: "a" } }], edges: [] },
      { nodes: [{ id: "x", type: "auto.action.teleport", params: { tag: "a" } }], edges: [] },
    );
    expect(diff.changed[0]).toMatchObject({ typeChanged: true, label: "auto.action.teleport", params: [] });
    expect(describeDiff(diff)).toEqual(["Replaced 'Add tag 'a'' with 'auto.action.teleport'"]);
  });
});

describe("describeDiff", () => {
  test("one plain-English line per change, naming steps by label", () => {
    expect(describeDiff(diffGraphs(before, after))).toEqual([
      "Added 'Wait 2 days'",
      "Added 'Email the order's email: 'Hi''",
      "Removed 'Add note 'Paid''",
      "Changed 'Add tag': tag 'vip' → 'gold'",
      "Added the connection from 'Add tag' to 'Wait'",
      "Added the connection from 'Wait' to 'Send email'",
      "Removed the connection from 'Add tag' to 'Add note'",
    ]);
  });

  test("condition exits, unset values, lists, and steps that share a label", () => {
    const a: Graph = {
      nodes: [
        { id: "t", type: "auto.trigger.order_paid", params: {} },
        { id: "c", type: "auto.condition.has_tag", params: { tag: "vip" } },
        { id: "one", type: "auto.action.add_tag", params: { tag: "a" } },
        { id: "two", type: "auto.action.add_tag", params: { tag: "b" } },
        { id: "w", type: "auto.control.wait_until", params: { time: "09:00", timezone: "UTC" } },
      ],
      edges: [{ id: "e", source: "c", sourceHandle: "true", target: "one" }],
    };
    const b: Graph = {
      nodes: a.nodes.map((n) => (n.id === "w" ? { ...n, params: { ...n.params, weekdays: [1, 2] } } : n)),
      edges: [{ id: "e", source: "c", sourceHandle: "false", target: "two" }],
    };
    expect(describeDiff(diffGraphs(a, b))).toEqual([
      "Changed 'Wait until': weekdays nothing → 1, 2",
      "Added the 'False' connection from 'Has tag' to 'Add tag 'b''",
      "Removed the 'True' connection from 'Has tag' to 'Add tag 'a''",
    ]);
  });

  test("steps are never named by their ids: the same label and sentence are told apart by place", () => {
    const a: Graph = {
      nodes: [
        { id: "t", type: "auto.trigger.order_paid", params: {} },
        { id: "n_ab12", type: "auto.action.add_tag", params: { tag: "vip" } },
        { id: "n_cd34", type: "auto.action.add_tag", params: { tag: "vip" } },
      ],
      edges: [{ id: "e", source: "t", sourceHandle: "out", target: "n_ab12" }],
    };
    const b: Graph = {
      nodes: a.nodes.map((n) => (n.id === "n_cd34" ? { ...n, params: { tag: "gold" } } : n)),
      edges: [{ id: "e", source: "t", sourceHandle: "out", target: "n_cd34" }],
    };
    const lines = describeDiff(diffGraphs(a, b));
    expect(lines).toEqual([
      "Changed 'Add tag 'gold'': tag 'vip' → 'gold'",
      "Added the connection from 'Order paid' to 'Add tag 'gold''",
      "Removed the connection from 'Order paid' to 'Add tag 'vip''",
    ]);
    const same = describeDiff(diffGraphs(a, { ...a, edges: b.edges }));
    expect(same).toEqual([
      "Added the connection from 'Order paid' to 'Add tag 'vip'' (the 2nd)",
      "Removed the connection from 'Order paid' to 'Add tag 'vip'' (the 1st)",
    ]);
    for (const line of [...lines, ...same]) expect(line).not.toMatch(/n_ab12|n_cd34/);
  });

  test("sameValue compares by value", () => {
    expect(sameValue({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toBe(true);
    expect(sameValue({ a: 1 }, { a: 1, b: undefined })).toBe(true);
    expect(sameValue([1], { 0: 1 })).toBe(false);
    expect(sameValue({ a: 1 }, { a: "1" })).toBe(false);
  });
});
