import { describe, expect, it } from "vitest";
import { registry } from "@/lib/automations/nodes/registry";
import { stepForm, stepForms } from "./registry";

describe("the step-form registry", () => {
  it("registers each form once, for a step the catalog knows", () => {
    const types = stepForms().map((form) => form.type);
    expect(new Set(types).size).toBe(types.length);
    expect(types.filter((type) => !registry.get(type))).toEqual([]);
  });

  it("finds a step's own form, its credential or its part, and nothing for the others", () => {
    expect(stepForm("auto.control.wait")?.Form).toBeDefined();
    expect(stepForm("auto.trigger.schedule")?.Form).toBeDefined();
    expect(stepForm("auto.action.slack")?.credential?.label).toBe("Slack webhook");
    expect(stepForm("auto.action.store_add_tags")?.credential?.label).toBe("Store");
    expect(stepForm("auto.control.approval")?.partParams).toEqual(["approvers", "reject"]);
    expect(stepForm("auto.trigger.webhook")?.After).toBeDefined();
    expect(stepForm("auto.action.add_tag")).toBeUndefined();
  });

  it("notes an HTTP step's plain secret headers under its headers field", () => {
    const http = stepForm("auto.action.http_request")!;
    const params = { headers: { Authorization: "Bearer abc" } };
    expect(http.paramNote?.("headers", params)).toBe(
      "Authorization: this header will be stored as a credential when you save.",
    );
    expect(http.paramNote?.("url", params)).toBeNull();
  });
});
