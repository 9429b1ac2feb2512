import { describe, expect, it } from "vitest";
import { WAIT_UNTIL_DST_HELP, waitHelp } from "./wait-copy";

describe("waitHelp", () => {
  it("names the trigger's record, in lower case", () => {
    expect(waitHelp("order")).toBe(
      "When the wait finishes we look at the order again — if it no longer matches the conditions after this step, the rest of the flow won't run.",
    );
    expect(waitHelp("customer")).toContain("we look at the customer again");
    expect(waitHelp("cart")).toContain("we look at the cart again");
    expect(waitHelp("invoice")).toContain("we look at the invoice again");
  });

  it("says the flow simply carries on when runs have no record", () => {
    for (const domain of ["webhook", "schedule", "later"] as const) {
      expect(waitHelp(domain)).toBe("When the wait finishes the flow continues with the rest of its steps.");
    }
  });

  it("speaks of 'the record' while the flow has no trigger", () => {
    expect(waitHelp(null)).toContain("we look at the record again");
  });
});

describe("WAIT_UNTIL_DST_HELP", () => {
  it("is one sentence covering both clock changes", () => {
    expect(WAIT_UNTIL_DST_HELP).toMatch(/skipped.*twice/);
    expect(WAIT_UNTIL_DST_HELP.split(". ")).toHaveLength(1);
  });
});
