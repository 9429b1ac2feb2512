import { describe, expect, test } from "vitest";
import type { Graph } from "@/lib/automations/graph/schema";
import type { PublishedVersion } from "@/lib/automations/store/versions";
import { decideStart, decideWake, NOT_STARTED_REASONS, WAKE_REASONS, type LiveAutomation } from "./wake";

//  v1:  trigger ──▶ wait ──▶ tag(a)
//  v2:  trigger ──▶ wait ──▶ tag(b)          (the wait is still there, the action changed)
//  v3:  trigger ──▶ tag(a)                   (the wait is gone)
//  v4:  = v1's steps (a revert), laid out elsewhere
const graph = (tag: string, withWait = true, x = 0): Graph => ({
  nodes: [
    { id: "t", type: "auto.trigger.order_paid", params: {}, position: { x, y: 0 } },
    ...(withWait ? [{ id: "w", type: "auto.control.wait", params: { duration: 2, unit: "days" } }] : []),
    { id: "a", type: "auto.action.add_tag", params: { tag } },
  ],
  edges: withWait
    ? [
        { id: "e1", source: "t", sourceHandle: "out", target: "w" },
        { id: "e2", source: "w", sourceHandle: "out", target: "a" },
      ]
    : [{ id: "e1", source: "t", sourceHandle: "out", target: "a" }],
});
const version = (n: number, g: Graph): PublishedVersion => ({
  automationId: "x",
  version: n,
  name: "Flow",
  graph: g,
});
const v1 = version(1, graph("a"));
const v2 = version(2, graph("b"));
const v3 = version(3, graph("a", false));
const v4 = version(4, graph("a", true, 300));

const live = (
  status: "active" | "paused" | "archived" | "draft",
  current: number,
  policy = "cancel",
): LiveAutomation => ({
  status,
  version: current,
  inFlightPolicy: policy as "cancel",
});

describe("the wake table", () => {
  const cases: [
    string,
    LiveAutomation,
    PublishedVersion | null,
    string | { version: number; note: string | null },
  ][] = [
    ["deleted", null, null, WAKE_REASONS.deleted],
    ["paused", live("paused", 1), v1, WAKE_REASONS.paused],
    ["archived", live("archived", 1), v1, WAKE_REASONS.archived],
    ["unpublished", live("draft", 1), v1, WAKE_REASONS.draft],
    ["active, same version", live("active", 1), v1, { version: 1, note: null }],
    [
      "active, a newer version with the same steps (a revert)",
      live("active", 4),
      v4,
      { version: 1, note: "Carried on: version 4 has the same steps as version 1." },
    ],
    ["newer version, policy cancel", live("active", 2, "cancel"), v2, WAKE_REASONS.edited],
    [
      "newer version, finish on the started version",
      live("active", 2, "finish_on_started_version"),
      v2,
      { version: 1, note: "Finished on version 1, the version it started on." },
    ],
    [
      "newer version, move to the latest",
      live("active", 2, "move_to_latest"),
      v2,
      { version: 2, note: "Moved to version 2 when it woke." },
    ],
    [
      "newer version without the wait, move to the latest",
      live("active", 3, "move_to_latest"),
      v3,
      "The automation was edited while this run was waiting, and version 3 no longer has the step it was waiting at.",
    ],
  ];

  test.each(cases)("%s", (_name, automation, latest, expected) => {
    const decision = decideWake({
      automation,
      wait: { automationVersion: 1, nodeId: "w" },
      started: v1,
      latest,
    });
    if (typeof expected === "string") expect(decision).toEqual({ go: false, reason: expected });
    else
      expect(decision).toMatchObject({
        go: true,
        version: { version: expected.version },
        note: expected.note,
      });
  });
});

describe("starting a run", () => {
  test("runs on its version while the automation is on, and says why not otherwise", () => {
    expect(decideStart(live("active", 1), v1)).toEqual({ go: true, version: v1, note: null });
    expect(decideStart(live("paused", 1), v1)).toEqual({ go: false, reason: NOT_STARTED_REASONS.paused });
    expect(decideStart(live("archived", 1), v1)).toEqual({ go: false, reason: NOT_STARTED_REASONS.archived });
    expect(decideStart(null, null)).toEqual({ go: false, reason: NOT_STARTED_REASONS.deleted });
  });
});
