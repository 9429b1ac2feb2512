import { describe, expect, it } from "vitest";
import { coerceField, paramFields, type ParamField } from "@/lib/automations/editor/param-form";
import { registry } from "@/lib/automations/nodes/registry";
import { rawFromValue, withParam } from "./raw-values";

function field(type: string, name: string): ParamField {
  const found = paramFields(registry.get(type)!).find((f) => f.name === name);
  if (!found) throw new Error(`no ${type}.${name}`);
  return found;
}

describe("rawFromValue", () => {
  it("round-trips every default param through coerceField", () => {
    for (const definition of registry.all()) {
      const defaults = definition.defaultParams() as Record<string, unknown>;
      for (const f of paramFields(definition)) {
        if (!Object.hasOwn(defaults, f.name)) continue;
        const value = defaults[f.name];
        const back = coerceField(f, rawFromValue(f, value));
        // An empty default ({} headers, "" value) may come back left out, which its schema fills in.
        if (back === undefined) expect(f.required, `${definition.type}.${f.name}`).toBe(false);
        else expect(back, `${definition.type}.${f.name}`).toEqual(value);
      }
    }
  });

  it("shows headers as Name: value lines, and reads them back", () => {
    const headers = field("auto.action.http_request", "headers");
    const raw = rawFromValue(headers, { "X-Shop": "demo", Authorization: "Bearer {variables.key}" });
    expect(raw).toBe("X-Shop: demo\nAuthorization: Bearer {variables.key}");
    expect(coerceField(headers, raw)).toEqual({ "X-Shop": "demo", Authorization: "Bearer {variables.key}" });
  });

  it("shows numbers as text and nested values as JSON", () => {
    expect(rawFromValue(field("auto.action.http_request", "timeoutMs"), 5000)).toBe("5000");
    const then = field("auto.action.later", "then");
    expect(coerceField(then, rawFromValue(then, { coupon: "SAVE10", n: 2 }))).toEqual({
      coupon: "SAVE10",
      n: 2,
    });
  });

  it("shows a missing optional param as empty, which coerces back to missing", () => {
    const dueIn = field("auto.action.create_task", "dueIn");
    expect(rawFromValue(dueIn, undefined)).toBe("");
    expect(coerceField(dueIn, "")).toBeUndefined();
  });

  it("shows a list with options as the ticked values", () => {
    const weekdays = field("auto.control.wait_until", "weekdays");
    expect(rawFromValue(weekdays, [1, 5])).toEqual(["1", "5"]);
    expect(coerceField(weekdays, ["1", "5"])).toEqual([1, 5]);
  });
});

describe("withParam", () => {
  it("sets a param, or leaves it out when it is undefined", () => {
    expect(withParam({ a: 1 }, "b", 2)).toEqual({ a: 1, b: 2 });
    expect(withParam({ a: 1, b: 2 }, "b", undefined)).toEqual({ a: 1 });
    expect(Object.hasOwn(withParam({ a: 1 }, "b", undefined), "b")).toBe(false);
  });
});
