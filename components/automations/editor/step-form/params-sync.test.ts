import { describe, expect, it } from "vitest";
import { initialSync, receive, send, stableJson } from "./params-sync";

const node = { id: "wait", params: { duration: 1, unit: "hours" } };

describe("params sync", () => {
  it("starts from the node's params", () => {
    const state = initialSync(node);
    expect(state.values).toEqual(node.params);
    expect(receive(state, node)).toBe(state);
  });

  it("keeps the form when its own edits come back, even late and reordered", () => {
    let state = initialSync(node);
    state = send(state, { duration: 12, unit: "hours" });
    state = send(state, { duration: 120, unit: "hours" });
    // The editor echoes the first edit only now, with its keys in another order.
    const echoed = receive(state, { id: "wait", params: { unit: "hours", duration: 12 } });
    expect(echoed.revision).toBe(state.revision);
    expect(echoed.values).toEqual({ duration: 120, unit: "hours" });
  });

  it("starts over when the params change elsewhere", () => {
    let state = send(initialSync(node), { duration: 12, unit: "hours" });
    state = receive(state, { id: "wait", params: { duration: 3, unit: "days" } });
    expect(state.revision).toBe(1);
    expect(state.values).toEqual({ duration: 3, unit: "days" });
    // An edit sent before the outside change is no longer the form's own.
    expect(receive(state, { id: "wait", params: { duration: 12, unit: "hours" } }).revision).toBe(2);
  });

  it("starts over for another node", () => {
    const state = receive(initialSync(node), { id: "wait_2", params: { duration: 1, unit: "hours" } });
    expect(state.nodeId).toBe("wait_2");
    expect(state.revision).toBe(1);
  });
});

describe("stableJson", () => {
  it("ignores key order at every depth, not array order", () => {
    expect(stableJson({ b: 1, a: { d: 2, c: [2, 1] } })).toBe(stableJson({ a: { c: [2, 1], d: 2 }, b: 1 }));
    expect(stableJson([1, 2])).not.toBe(stableJson([2, 1]));
  });
});
