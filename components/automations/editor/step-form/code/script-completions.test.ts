import { describe, expect, test } from "vitest";
import { completionsAt, scriptCompletions } from "./script-completions";

describe("scriptCompletions", () => {
  const order = scriptCompletions("order", [{ id: "score", label: "Run code" }]);

  test("actions. lists every script action with its signature", () => {
    const found = completionsAt(order, "actions.");
    expect(found?.options.map((o) => o.label)).toEqual([
      "tag",
      "untag",
      "note",
      "email",
      "task",
      "http",
      "later",
    ]);
    expect(found?.options[0]).toMatchObject({
      detail: "actions.tag(tag)",
      info: "Adds a tag to the record.",
    });
  });

  test("entity. lists the order's fields and its customer's after entity.customer.", () => {
    const labels = completionsAt(order, "if (entity.to")?.options.map((o) => o.label);
    expect(labels).toEqual(expect.arrayContaining(["number", "status", "total", "tags", "id", "customer"]));
    expect(completionsAt(order, "entity.to")?.from).toBe("entity.".length);
    expect(completionsAt(order, "x = entity.customer.")?.options.map((o) => o.label)).toContain("name");
  });

  test("event. has type, at and payload; a later-started run's then, step and due", () => {
    expect(completionsAt(order, "event.")?.options.map((o) => o.label)).toEqual(
      expect.arrayContaining(["type", "at", "payload"]),
    );
    expect(completionsAt(order, "event.")?.options.map((o) => o.label)).not.toContain("then");
    const later = scriptCompletions("later", []);
    expect(completionsAt(later, "event.")?.options.map((o) => o.label)).toEqual(
      expect.arrayContaining(["then", "step", "due"]),
    );
    expect(later.entity).toBeUndefined();
  });

  test("steps. lists the steps before this one; globals complete from a word", () => {
    expect(completionsAt(order, "steps.")?.options).toEqual([
      { label: "score", detail: "step", info: "Run code", type: "property" },
    ]);
    expect(completionsAt(order, "return ac")?.options.map((o) => o.label)).toContain("actions");
    expect(completionsAt(order, "return ")).toBeNull();
    expect(completionsAt(order, "foo.")).toBeNull();
    expect(completionsAt(order, "obj.entity.")).toBeNull();
  });
});
