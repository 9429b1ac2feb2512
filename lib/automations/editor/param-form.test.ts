import { describe, expect, test } from "vitest";
import { registry } from "@/lib/automations/nodes/registry";
import type { NodeDefinition } from "@/lib/automations/nodes/types";
import { coerceField, paramErrors, paramFields, type ParamField } from "./param-form";

function definition(type: string): NodeDefinition {
  const found = registry.get(type);
  if (!found) throw new Error(`no ${type}`);
  return found;
}

function field(type: string, name: string): ParamField {
  const found = paramFields(definition(type)).find((f) => f.name === name);
  if (!found) throw new Error(`no ${type}.${name}`);
  return found;
}

describe("paramFields", () => {
  test.each(registry.all().map((d) => [d.type, d]))("%s: one usable field per param", (_type, def) => {
    const fields = paramFields(def);
    const defaults = def.defaultParams() as Record<string, unknown>;
    // Every default param has a field, and every field is a param of the schema.
    for (const name of Object.keys(defaults)) expect(fields.map((f) => f.name)).toContain(name);
    for (const f of fields) {
      expect(f.label).toMatch(/^[A-Z]/);
      expect(f.label, "no camelCase leaks into a label").not.toMatch(/[a-z][A-Z]/);
      expect(["text", "textarea", "number", "select", "boolean", "list", "json", "record"]).toContain(f.kind);
      if (f.kind === "select") expect(f.options?.length).toBeGreaterThan(0);
      expect(f.templated).toBe((def.templated ?? []).includes(f.name));
    }
    // A form filled with the defaults shows no field error (a trigger token may still be required).
    const errors = paramErrors(def, defaults);
    for (const key of Object.keys(errors))
      expect(fields.find((f) => f.name === key)?.required ?? true).toBe(true);
  });

  test("kinds, labels and limits read sensibly", () => {
    expect(field("auto.control.wait", "duration")).toMatchObject({
      kind: "number",
      label: "Duration",
      required: true,
      min: 1,
    });
    expect(field("auto.control.wait", "unit")).toMatchObject({
      kind: "select",
      options: [
        { value: "minutes", label: "Minutes" },
        { value: "hours", label: "Hours" },
        { value: "days", label: "Days" },
      ],
    });
    expect(field("auto.control.wait_until", "timezone")).toMatchObject({ kind: "text", label: "Time zone" });
    expect(field("auto.control.wait_until", "weekdays")).toMatchObject({
      kind: "list",
      itemKind: "number",
      required: false,
    });
    expect(field("auto.control.wait_until", "weekdays").options?.[0]).toEqual({ value: "1", label: "Mon" });
    expect(field("auto.action.create_task", "dueIn")).toMatchObject({
      kind: "text",
      label: "Due in",
      required: false,
    });
    expect(field("auto.action.send_email", "body")).toMatchObject({
      kind: "textarea",
      templated: true,
      required: true,
    });
    expect(field("auto.action.send_email", "to")).toMatchObject({
      kind: "text",
      required: false,
      placeholder: "{entity.email}",
    });
    expect(field("auto.action.add_note", "body").kind).toBe("textarea");
    expect(field("auto.action.http_request", "body").kind).toBe("textarea");
    expect(field("auto.action.http_request", "url")).toMatchObject({
      kind: "text",
      label: "URL",
      templated: true,
    });
    expect(field("auto.action.http_request", "method").options?.map((o) => o.label)).toContain("POST");
    expect(field("auto.action.http_request", "headers").kind).toBe("record");
    expect(field("auto.action.http_request", "timeoutMs")).toMatchObject({
      kind: "number",
      min: 1000,
      max: 30000,
    });
    expect(field("auto.action.later", "then").kind).toBe("json");
    expect(field("auto.trigger.schedule", "audience")).toMatchObject({ kind: "json", required: false });
    expect(field("auto.trigger.order_status_changed", "to")).toMatchObject({
      kind: "select",
      label: "To status",
    });
    expect(field("auto.condition.field", "operator").options?.find((o) => o.value === "gt")?.label).toBe(
      "is greater than",
    );
    expect(field("auto.condition.field", "value").kind).toBe("text");
    expect(field("auto.action.add_tag", "tag")).toMatchObject({ kind: "text", required: true, max: 100 });
  });
});

describe("paramErrors", () => {
  test("valid params have no errors", () => {
    expect(paramErrors(definition("auto.action.add_tag"), { tag: "vip" })).toEqual({});
  });

  test("first message per param, naming the field", () => {
    const errors = paramErrors(definition("auto.action.send_email"), { to: "nope", subject: "", body: "" });
    expect(errors).toEqual({
      to: "To must be an email address or a token such as {entity.email}.",
      subject: "Subject cannot be empty.",
      body: "Body cannot be empty.",
    });
    expect(paramErrors(definition("auto.control.wait"), { unit: "weeks" })).toEqual({
      duration: "Duration is required.",
      unit: "Unit must be one of minutes, hours, days.",
    });
  });

  test("nested problems name the part; whole-step problems go under ''", () => {
    expect(
      paramErrors(definition("auto.action.http_request"), { url: "https://x.test", headers: { "X Y": "1" } }),
    ).toEqual({ headers: "Headers (X Y) is not a valid header name." });
    expect(paramErrors(definition("auto.action.add_tag"), { tag: "a", colour: "red" })).toEqual({
      "": "'colour' is not a setting of this step.",
    });
    expect(paramErrors(definition("auto.action.add_tag"), "nope")[""]).toMatch(/\.$/);
  });

  test("checks beyond the schema come under ''", () => {
    expect(paramErrors(definition("auto.control.wait"), { duration: 31, unit: "days" })).toEqual({
      "": "A wait can be at most 30 days.",
    });
  });

  test("a refinement on another field lands on that field", () => {
    expect(paramErrors(definition("auto.condition.field"), { path: "total", operator: "gt" })).toEqual({
      value: "Value is required for this comparison.",
    });
  });
});

describe("coerceField", () => {
  test("text: '' is undefined when optional, kept when required", () => {
    expect(coerceField(field("auto.action.create_task", "dueIn"), "")).toBeUndefined();
    expect(coerceField(field("auto.action.add_tag", "tag"), "")).toBe("");
    expect(coerceField(field("auto.action.add_tag", "tag"), "vip")).toBe("vip");
  });

  test("numbers are parsed; what is not a number is kept so its error shows", () => {
    const duration = field("auto.control.wait", "duration");
    expect(coerceField(duration, " 3 ")).toBe(3);
    expect(coerceField(duration, "")).toBeUndefined();
    expect(coerceField(duration, "three")).toBe("three");
    expect(paramErrors(definition("auto.control.wait"), { duration: "three", unit: "days" })).toEqual({
      duration: "Duration must be a number.",
    });
  });

  test("lists, booleans, JSON and records", () => {
    const weekdays = field("auto.control.wait_until", "weekdays");
    expect(coerceField(weekdays, ["1", "5"])).toEqual([1, 5]);
    expect(coerceField(weekdays, "1, 2,3")).toEqual([1, 2, 3]);
    expect(coerceField(weekdays, [])).toBeUndefined();
    expect(coerceField({ ...weekdays, itemKind: "text" }, "vip, gold")).toEqual(["vip", "gold"]);
    expect(coerceField({ ...weekdays, kind: "boolean" }, true)).toBe(true);
    expect(coerceField({ ...weekdays, kind: "boolean" }, "false")).toBe(false);
    const then = field("auto.action.later", "then");
    expect(coerceField(then, '{"a": 1}')).toEqual({ a: 1 });
    expect(coerceField(then, "{broken")).toBe("{broken");
    expect(coerceField(then, "")).toBeUndefined();
    const headers = field("auto.action.http_request", "headers");
    expect(coerceField(headers, "X-Shop: demo\nAuthorization: Bearer {variables.key}")).toEqual({
      "X-Shop": "demo",
      Authorization: "Bearer {variables.key}",
    });
    expect(coerceField(headers, '{"X-A": "1"}')).toEqual({ "X-A": "1" });
    expect(coerceField(headers, "no colon here")).toBe("no colon here");
  });
});
