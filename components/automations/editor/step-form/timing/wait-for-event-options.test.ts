import { describe, expect, it } from "vitest";
import {
  limitError,
  matchFieldErrors,
  matchParam,
  offersSameRecord,
  readMatch,
  splitHours,
  toHours,
} from "./wait-for-event-options";

describe("the wait for event form's choices", () => {
  it("reads the match, and keeps the field's path and value while switching", () => {
    expect(readMatch(undefined)).toEqual({ kind: "same_record", path: "", equals: "" });
    const field = readMatch({ kind: "field", path: "payload.body.email", equals: "{entity.email}" });
    expect(matchParam("same_record", field.path, field.equals)).toEqual({ kind: "same_record" });
    expect(matchParam("field", field.path, field.equals)).toEqual({
      kind: "field",
      path: "payload.body.email",
      equals: "{entity.email}",
    });
  });

  it("offers the same record only when the trigger has one (or the step already says so)", () => {
    expect(offersSameRecord("order", "field")).toBe(true);
    expect(offersSameRecord("webhook", "field")).toBe(false);
    expect(offersSameRecord("schedule", "field")).toBe(false);
    expect(offersSameRecord("webhook", "same_record")).toBe(true);
  });

  it("names what is wrong with the field and its value", () => {
    expect(matchFieldErrors({ kind: "field", path: "", equals: "" })).toEqual({
      path: "The field is required.",
      equals: "The value is required.",
    });
    expect(matchFieldErrors({ kind: "field", path: "payload.body.email", equals: "x" })).toEqual({});
  });

  it("shows whole days as days and stores hours", () => {
    expect(splitHours(72)).toEqual({ amount: "3", unit: "days" });
    expect(splitHours(36)).toEqual({ amount: "36", unit: "hours" });
    expect(toHours("3", "days")).toBe(72);
    expect(toHours("36", "hours")).toBe(36);
    expect(toHours("soon", "days")).toBe("soon");
    expect(limitError("Timeout hours must be at most 720.")).toBe(
      "The time limit can be at most 30 days (720 hours).",
    );
    expect(limitError("Timeout hours must be a whole number.")).toBe(
      "The time limit must be a whole number of hours or days, at least 1 hour.",
    );
    expect(limitError(undefined)).toBeUndefined();
  });
});
