import { describe, expect, test } from "vitest";
import type { GraphDiff } from "@/lib/automations/review/diff";
import type { Graph } from "@/lib/automations/graph/schema";
import { diffGraphs } from "@/lib/automations/review/diff";
import { diffEntries, outcomeText, parsePayload, previousVersion, stepCount } from "./panel-text";
import { draftMatchesActive, publishBlockedReason, publishStateText } from "../header/publish-text";

const sameSteps = (before: Graph, after: Graph) => diffGraphs(before, after).isEmpty;

const emptyDiff: GraphDiff = {
  added: [],
  removed: [],
  changed: [],
  edgesAdded: [],
  edgesRemoved: [],
  isEmpty: true,
};

describe("diffEntries", () => {
  test("an empty diff has no lines", () => {
    expect(diffEntries(emptyDiff)).toEqual([]);
  });

  //  v1: t ──▶ w(Wait 1 hour) ──▶ tag
  //  v2: t ──▶ w(Wait 2 hours) ──▶ note          (tag removed, note added)
  test("steps added, removed and changed, then connections, each with a text marker", () => {
    const diff: GraphDiff = {
      added: [{ nodeId: "note", type: "auto.action.add_note", label: "Add note", summary: "Add note 'hi'" }],
      removed: [{ nodeId: "tag", type: "auto.action.add_tag", label: "Add tag", summary: "Add tag 'vip'" }],
      changed: [
        {
          nodeId: "w",
          type: "auto.control.wait",
          label: "Wait",
          summary: "Wait 2 hours",
          summaryBefore: "Wait 1 hour",
          params: [{ key: "duration", before: 1, after: 2 }],
          typeChanged: false,
        },
      ],
      edgesAdded: [{ id: "e2", source: "w", sourceHandle: "out", target: "note" }],
      edgesRemoved: [{ id: "e1", source: "w", sourceHandle: "out", target: "tag" }],
      isEmpty: false,
      names: { w: "'Wait'", note: "'Add note'", tag: "'Add tag'" },
    };
    expect(diffEntries(diff)).toEqual([
      { marker: "+", kind: "added", text: "Added step: Add note 'hi'", details: [] },
      { marker: "−", kind: "removed", text: "Removed step: Add tag 'vip'", details: [] },
      {
        marker: "~",
        kind: "changed",
        text: "Changed step: Wait 1 hour → Wait 2 hours",
        details: ["duration: 1 → 2"],
      },
      { marker: "+", kind: "added", text: "Added connection: 'Wait' → 'Add note'", details: [] },
      { marker: "−", kind: "removed", text: "Removed connection: 'Wait' → 'Add tag'", details: [] },
    ]);
  });

  test("a changed step whose summary is the same names it once; a new type says so; branches name their handle", () => {
    const diff: GraphDiff = {
      ...emptyDiff,
      changed: [
        {
          nodeId: "c",
          type: "auto.condition.has_tag",
          label: "Has tag",
          summary: "Has tag 'vip'",
          summaryBefore: "Has tag 'vip'",
          params: [{ key: "note", before: undefined, after: "x" }],
          typeChanged: true,
        },
      ],
      edgesAdded: [{ id: "e", source: "c", sourceHandle: "true", target: "t" }],
      isEmpty: false,
    };
    const [changed, edge] = diffEntries(diff);
    expect(changed!.text).toBe("Changed step: Has tag 'vip'");
    expect(changed!.details).toEqual(["The kind of step changed.", "note: nothing → 'x'"]);
    // Without names from the diff, a connection's ends are their ids.
    expect(edge!.text).toBe("Added connection: 'c' (True) → 't'");
  });

  test("a step without a summary is named by its label, then its id", () => {
    const diff: GraphDiff = {
      ...emptyDiff,
      added: [
        { nodeId: "a", type: "x", label: "Add tag", summary: "" },
        { nodeId: "b", type: "x", label: "", summary: "" },
      ],
      isEmpty: false,
    };
    expect(diffEntries(diff).map((e) => e.text)).toEqual(["Added step: Add tag", "Added step: b"]);
  });
});

describe("previousVersion", () => {
  const versions = [{ version: 4 }, { version: 2 }, { version: 1 }];
  test("finds the version published just before, across gaps", () => {
    expect(previousVersion(versions, 4)).toEqual({ version: 2 });
    expect(previousVersion(versions, 2)).toEqual({ version: 1 });
  });
  test("the first version has none", () => {
    expect(previousVersion(versions, 1)).toBeNull();
  });
});

test("stepCount", () => {
  expect(stepCount({ nodes: [], edges: [] })).toBe("0 steps");
  expect(stepCount({ nodes: [{ id: "a", type: "t", params: {} }], edges: [] })).toBe("1 step");
});

describe("parsePayload", () => {
  test("an empty box means no payload", () => {
    expect(parsePayload("")).toEqual({ ok: true, payload: undefined });
    expect(parsePayload("  \n ")).toEqual({ ok: true, payload: undefined });
  });

  test("a JSON object is the payload", () => {
    expect(parsePayload('{"total": 120, "tags": ["vip"]}')).toEqual({
      ok: true,
      payload: { total: 120, tags: ["vip"] },
    });
  });

  test("invalid JSON is a sentence that says so and how to fix it", () => {
    const result = parsePayload('{"total": 120,}');
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).toMatch(
        /^The event payload is not valid JSON \(.+\)\. Check quotes, commas and braces\.$/,
      );
    }
  });

  test.each([
    ["[1, 2]", "a list"],
    ["null", "null"],
    ["42", "a number"],
    ['"hello"', "a string"],
  ])("%s is refused: the payload must be an object", (text, what) => {
    expect(parsePayload(text)).toEqual({
      ok: false,
      error: `The event payload must be a JSON object such as {"total": 120}, not ${what}.`,
    });
  });
});

test.each([
  ["started", "started"],
  ["true", "true"],
  ["false", "false"],
  ["would_run", "would run"],
  ["would_wait", "would wait"],
  ["error", "error"],
] as const)("outcomeText(%s) reads '%s'", (outcome, text) => {
  expect(outcomeText(outcome)).toBe(text);
});

describe("publish wording", () => {
  const graph: Graph = {
    nodes: [
      { id: "t", type: "auto.trigger.order_created", params: {}, position: { x: 0, y: 0 } },
      { id: "tag", type: "auto.action.add_tag", params: { tag: "vip" }, position: { x: 0, y: 100 } },
    ],
    edges: [{ id: "e1", source: "t", sourceHandle: "out", target: "tag" }],
  };
  const active = { graph, name: "VIP tagging", inFlightPolicy: "cancel" as const };

  test("the draft matches the active version by content: steps (not positions), name and policy", () => {
    const moved: Graph = {
      ...graph,
      nodes: graph.nodes.map((n) => ({ ...n, position: { x: 40, y: 40 } })),
      edges: graph.edges.map((e) => ({ ...e, id: "other" })),
    };
    expect(draftMatchesActive(active, { ...active, graph: moved }, sameSteps)).toBe(true);
    expect(draftMatchesActive(active, { ...active, name: "VIP tagging " }, sameSteps)).toBe(true);
    expect(draftMatchesActive(active, { ...active, name: "Gold tagging" }, sameSteps)).toBe(false);
    expect(draftMatchesActive(active, { ...active, inFlightPolicy: "move_to_latest" }, sameSteps)).toBe(
      false,
    );
    const retagged: Graph = {
      ...graph,
      nodes: graph.nodes.map((n) => (n.id === "tag" ? { ...n, params: { tag: "gold" } } : n)),
    };
    expect(draftMatchesActive(active, { ...active, graph: retagged }, sameSteps)).toBe(false);
    // Never published, or the active version not known yet: never "nothing to publish".
    expect(draftMatchesActive(null, active, sameSteps)).toBe(false);
  });

  test("Publish says why it is disabled: issues first, then the name, then nothing new", () => {
    const base = { issueCount: 0, nameMissing: false, unchanged: false, version: 3 };
    expect(publishBlockedReason(base)).toBeNull();
    expect(publishBlockedReason({ ...base, unchanged: true })).toBe(
      "Nothing to publish: the draft is the same as version 3.",
    );
    expect(publishBlockedReason({ ...base, issueCount: 2, unchanged: true })).toBe(
      "Fix 2 issues to publish.",
    );
    expect(publishBlockedReason({ ...base, issueCount: 1 })).toBe("Fix 1 issue to publish.");
    expect(publishBlockedReason({ ...base, nameMissing: true })).toBe(
      "Give the automation a name to publish it.",
    );
  });

  test("a live flow reads as live, with or without changes; a viewer is never told to publish", () => {
    const live = { status: "active" as const, version: 3, canEdit: true };
    expect(publishStateText({ ...live, changed: false })).toEqual({
      title: "Live: version 3 is running.",
      detail: null,
    });
    expect(publishStateText({ ...live, changed: true }).title).toBe(
      "Changes since version 3 — publish to make them live.",
    );
    expect(publishStateText({ ...live, status: "paused", changed: false }).title).toBe(
      "Paused: version 3 is not running.",
    );
    for (const state of [
      publishStateText({ ...live, changed: false }),
      publishStateText({ ...live, changed: true }),
    ]) {
      expect(`${state.title} ${state.detail}`).not.toMatch(/Ready to publish|Publish to start/);
    }
    const viewer = { ...live, canEdit: false };
    for (const state of [
      publishStateText({ ...viewer, changed: false }),
      publishStateText({ ...viewer, changed: true }),
      publishStateText({ ...viewer, status: "paused", changed: true }),
      publishStateText({ ...viewer, status: "draft", version: 0, changed: true }),
    ]) {
      expect(`${state.title} ${state.detail}`).not.toMatch(/publish to|Publish to|Ready to publish/);
    }
    expect(publishStateText({ ...viewer, changed: true })).toEqual({
      title: "Live: version 3 is running.",
      detail: "The draft has changes since version 3 that are not published.",
    });
    // Only a never-published draft, for someone who can publish it, is "Ready to publish".
    expect(publishStateText({ ...live, status: "draft", version: 0, changed: true })).toEqual({
      title: "Ready to publish",
      detail: "Every step is set up. Publish to start running this flow.",
    });
  });
});
