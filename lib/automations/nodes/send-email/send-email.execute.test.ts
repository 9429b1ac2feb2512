import { describe, expect, it } from "vitest";
import { recipientsProblem } from "./send-email.execute";

describe("recipientsProblem", () => {
  it("accepts one address or several separated by commas, as the settings allow", () => {
    expect(recipientsProblem("ada@example.com")).toBeNull();
    expect(recipientsProblem("ada@example.com, ops@shop.test")).toBeNull();
  });

  it("names the recipient that is not an address, and says when the list came out empty", () => {
    expect(recipientsProblem("ada@example.com, nobody")).toBe("'nobody' is not an email address.");
    expect(recipientsProblem(" ")).toBe("The recipient came out empty (does the record have an email?).");
  });
});
