import { describe, expect, test } from "vitest";
import {
  attemptsOf,
  groupByLeg,
  nextWait,
  nextWaitOf,
  nodeStatuses,
  numberOccurrences,
  retryNote,
} from "./timeline";

//  leg 1: t ─▶ tag ─▶ w (waiting)      leg 2: w ─▶ tag      (tag runs twice)
const steps = [
  { nodeId: "tag", nodeType: "auto.action.add_tag", status: "success", leg: 1 },
  { nodeId: "w", nodeType: "auto.control.wait", status: "success", leg: 1 },
  { nodeId: "tag", nodeType: "auto.action.add_tag", status: "failed", leg: 2 },
];

describe("run timeline", () => {
  test("a node that runs twice gets two distinct keys", () => {
    const numbered = numberOccurrences(steps);
    expect(numbered.map((s) => s.key)).toEqual(["tag#1", "w#1", "tag#2"]);
    expect(new Set(numbered.map((s) => s.key)).size).toBe(steps.length);
  });

  test("steps are grouped by leg in leg order", () => {
    const groups = groupByLeg([steps[2]!, steps[0]!, steps[1]!]);
    expect(groups.map((g) => [g.leg, g.steps.map((s) => s.nodeId)])).toEqual([
      [1, ["tag", "w"]],
      [2, ["tag"]],
    ]);
  });

  //  leg 1: t ─▶ ask (approval)   leg 2: ask ─▶ w (wait)   leg 3: w ─▶ tag
  test("each leg is titled in a merchant's words by what it resumed after, never 'leg'", () => {
    const titled = groupByLeg([
      { nodeType: "auto.trigger.order_created", leg: 1 },
      { nodeType: "auto.control.approval", leg: 1 },
      { nodeType: "auto.control.approval", leg: 2 },
      { nodeType: "auto.control.wait", leg: 2 },
      { nodeType: "auto.control.wait", leg: 3 },
      { nodeType: "auto.action.add_tag", leg: 3 },
    ]).map((g) => g.title);
    expect(titled).toEqual(["From the trigger", "After the approval", "After the wait"]);
    expect(groupByLeg([])).toEqual([]);
  });

  test("a node's status is its latest step's", () => {
    expect(nodeStatuses(steps)).toEqual({ tag: "failed", w: "success" });
    expect(nodeStatuses([])).toEqual({});
  });
});

//  leg 1: t ─▶ call ✗ (retry 2 of 3)   leg 2: call ✗ (retry 3 of 3)   leg 3: call ✓ ─▶ tag
const note = (next: number, at = "2026-11-30T14:05:00.000Z") => ({ status: 503, retry: { next, of: 3, at } });
const retried = numberOccurrences([
  { nodeId: "t", status: "success", leg: 1, output: {} },
  { nodeId: "call", status: "failed", leg: 1, output: note(2) },
  { nodeId: "call", status: "failed", leg: 2, output: note(3, "2026-11-30T14:06:00.000Z") },
  { nodeId: "call", status: "success", leg: 3, output: { status: 200 } },
  { nodeId: "tag", status: "success", leg: 3, output: {} },
]);

describe("retries in the run history", () => {
  test("retryNote reads the engine's output.retry and nothing else", () => {
    expect(retryNote(note(2))).toEqual({ next: 2, of: 3, at: "2026-11-30T14:05:00.000Z" });
    expect(retryNote({ status: 503 })).toBeNull();
    expect(retryNote(null)).toBeNull();
    expect(retryNote({ retry: { next: "2", of: 3, at: "2026-11-30T14:05:00Z" } })).toBeNull();
    expect(retryNote({ retry: { next: 2, of: 3, at: "soon" } })).toBeNull();
  });

  test("each attempt of a retried action is numbered, the last one from the note before it", () => {
    expect(Object.fromEntries(attemptsOf(retried))).toEqual({
      "call#1": { attempt: 1, of: 3 },
      "call#2": { attempt: 2, of: 3 },
      "call#3": { attempt: 3, of: 3 },
    });
    expect(attemptsOf(numberOccurrences(steps.map((s) => ({ ...s, output: {} })))).size).toBe(0);
  });

  test("a run waiting on a retry says which attempt is next, from the last failed step's note", () => {
    const waiting = retried.slice(0, 3);
    const waits = [
      { kind: "retry", status: "resumed", resumeAt: "2026-11-30T14:05:00.000Z", nodeId: "call" },
      { kind: "retry", status: "pending", resumeAt: "2026-11-30T14:06:00.000Z", nodeId: "call" },
    ];
    expect(nextWaitOf(waits, waiting)).toEqual({ kind: "retry", retry: { attempt: 3, of: 3 } });
  });

  test("the earliest pending wait decides; other kinds carry no attempts; none pending is null", () => {
    const waits = [
      { kind: "retry", status: "pending", resumeAt: "2026-11-30T14:06:00.000Z", nodeId: "call" },
      { kind: "delay", status: "pending", resumeAt: "2026-11-30T14:01:00.000Z", nodeId: "w" },
    ];
    expect(nextWaitOf(waits, retried)).toEqual({ kind: "delay", retry: null });
    expect(nextWaitOf([{ ...waits[0]!, status: "resumed" }], retried)).toBeNull();
    // A retry whose failed step has no readable note still says it is a retry.
    expect(nextWait("retry", { status: 503 })).toEqual({ kind: "retry", retry: null });
    expect(nextWait("approval", note(2))).toEqual({ kind: "approval", retry: null });
  });
});
