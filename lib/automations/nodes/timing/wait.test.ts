import { describe, expect, it } from "vitest";
import { wait } from "./wait";

const issues = (params: unknown) => {
  const result = wait.params.safeParse(params);
  return result.success
    ? []
    : result.error.issues.map((i) => [i.path.join("."), i.message].filter(Boolean).join(" "));
};

describe("auto.control.wait", () => {
  it("is a wait with one exit and no domain", () => {
    expect(wait).toMatchObject({
      type: "auto.control.wait",
      category: "wait",
      label: "Wait",
      handles: { in: true, out: ["out"] },
    });
    expect(wait).not.toHaveProperty("entityDomain");
  });

  it("defaults to one hour", () => {
    expect(wait.defaultParams()).toEqual({ duration: 1, unit: "hours" });
    expect(wait.params.parse(wait.defaultParams())).toEqual({ duration: 1, unit: "hours" });
  });

  it("summarises in the singular for one", () => {
    expect(wait.summarise({ duration: 2, unit: "days" })).toBe("Wait 2 days");
    expect(wait.summarise({ duration: 1, unit: "hours" })).toBe("Wait 1 hour");
    expect(wait.summarise({ duration: 30, unit: "minutes" })).toBe("Wait 30 minutes");
    expect(wait.summarise({ duration: 1, unit: "minutes" })).toBe("Wait 1 minute");
    expect(wait.summarise({ duration: 1, unit: "days" })).toBe("Wait 1 day");
  });

  it("accepts any whole number of at least 1, with no upper bound in the schema", () => {
    expect(issues({ duration: 1, unit: "minutes" })).toEqual([]);
    // Over 30 days is a ready issue (validate.ts), not a schema error: a stored graph still parses.
    expect(issues({ duration: 365, unit: "days" })).toEqual([]);
    expect(issues({ duration: 0, unit: "hours" })).toEqual(["duration must be at least 1"]);
    expect(issues({ duration: 1.5, unit: "hours" })).toEqual(["duration must be a whole number"]);
    expect(issues({ duration: "2", unit: "hours" })).toEqual(["duration must be a number"]);
    expect(issues({ unit: "hours" })).toEqual(["duration is required"]);
    expect(issues({ duration: 2, unit: "weeks" })).toEqual(["unit must be one of minutes, hours, days"]);
    expect(issues({ duration: 2, unit: "days", seconds: 5 })).toEqual([
      "'seconds' is not a setting of this step",
    ]);
  });
});
