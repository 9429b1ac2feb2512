import { describe, expect, it } from "vitest";
import { paramErrors, paramFields } from "@/lib/automations/editor/param-form";
import { validate } from "@/lib/automations/review/validate";
import { approval } from "./approval";

const base = { title: "Review this", timeoutHours: 72, approverRole: "editor" as const };

//  t (order_paid) ──▶ a (approval) ──approved──▶ tag(ok)
const graphWith = (params: Record<string, unknown>) => ({
  nodes: [
    { id: "t", type: "auto.trigger.order_paid", params: {} },
    { id: "a", type: "auto.control.approval", params },
    { id: "ok", type: "auto.action.add_tag", params: { tag: "ok" } },
  ],
  edges: [
    { id: "e1", source: "t", target: "a" },
    { id: "e2", source: "a", sourceHandle: "approved", target: "ok" },
  ],
});

describe("auto.control.approval's reminder and escalation", () => {
  it("are optional, whole hours from 1 to 720, and kept as given", () => {
    expect(approval.params.parse(base)).toEqual(base);
    expect(approval.params.parse({ ...base, remindAfterHours: 24, escalateAfterHours: 48 })).toEqual({
      ...base,
      remindAfterHours: 24,
      escalateAfterHours: 48,
    });
    expect(approval.params.safeParse({ ...base, remindAfterHours: 0 }).success).toBe(false);
    expect(approval.params.safeParse({ ...base, remindAfterHours: 1.5 }).success).toBe(false);
    expect(approval.params.safeParse({ ...base, timeoutHours: 720, escalateAfterHours: 721 }).success).toBe(
      false,
    );
  });

  it("refuse a reminder at or after the time-out, in a sentence the form shows under the field", () => {
    expect(paramErrors(approval, { ...base, timeoutHours: 24, remindAfterHours: 24 })).toEqual({
      remindAfterHours:
        "Remind approvers after (hours) must be less than the time-out (24 hours), or the reminder would come after the run has moved on.",
    });
    expect(paramErrors(approval, { ...base, timeoutHours: 24, escalateAfterHours: 30 })).toEqual({
      escalateAfterHours:
        "Tell admins after (hours) must be less than the time-out (24 hours), or the admins would hear of it after the run has moved on.",
    });
  });

  it("refuse telling the admins before (or with) the reminder", () => {
    expect(paramErrors(approval, { ...base, remindAfterHours: 48, escalateAfterHours: 48 })).toEqual({
      escalateAfterHours:
        "Tell admins after (hours) must be more than the reminder (48 hours): the approvers are reminded first, then the admins are told.",
    });
    expect(paramErrors(approval, { ...base, remindAfterHours: 24, escalateAfterHours: 48 })).toEqual({});
  });

  it("make a ready issue that names the step, so a draft with them cannot be published", () => {
    expect(validate(graphWith({ ...base, timeoutHours: 12, remindAfterHours: 12 }))).toEqual([
      {
        nodeId: "a",
        message:
          "Approval: remindAfterHours must be less than the time-out (12 hours), or the reminder would come after the run has moved on.",
      },
    ]);
    expect(validate(graphWith({ ...base, remindAfterHours: 12, escalateAfterHours: 24 }))).toEqual([]);
  });

  it("are two optional number fields in the config panel, in the merchant's words", () => {
    const fields = paramFields(approval).filter((f) => f.name.endsWith("AfterHours"));
    expect(fields).toMatchObject([
      {
        name: "remindAfterHours",
        label: "Remind approvers after (hours)",
        kind: "number",
        required: false,
        min: 1,
        max: 720,
      },
      {
        name: "escalateAfterHours",
        label: "Tell admins after (hours)",
        kind: "number",
        required: false,
        min: 1,
        max: 720,
      },
    ]);
  });

  it("are mentioned in the step's summary when set", () => {
    expect(approval.summarise({ ...base, remindAfterHours: 24, escalateAfterHours: 48 })).toBe(
      "Approval: Review this · 72 h · reminder after 24 h · admins after 48 h",
    );
    expect(approval.summarise(base)).toBe("Approval: Review this · 72 h");
  });
});
