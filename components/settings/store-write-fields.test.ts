import { describe, expect, it } from "vitest";
import { issuesByField } from "./store-write-fields";

describe("issuesByField", () => {
  it("gives each field its issue's sentence without the field's name in front", () => {
    const issues = [
      { path: "shopDomain", message: "shopDomain: Use the shop's myshopify.com address." },
      { path: "name", message: "Give the connection a name." },
    ];
    expect(issuesByField(issues, ["name", "shopDomain", "adminToken"])).toEqual({
      name: "Give the connection a name.",
      shopDomain: "Use the shop's myshopify.com address.",
    });
  });

  it("reads a field named under a prefix too, and only there when asked", () => {
    const issues = [{ path: "writes.adminToken", message: "writes.adminToken: The token is not valid." }];
    expect(issuesByField(issues, ["adminToken"], "writes")).toEqual({
      adminToken: "The token is not valid.",
    });
    expect(issuesByField(issues, ["adminToken"])).toEqual({});
    expect(issuesByField(undefined, ["adminToken"], "writes")).toEqual({});
  });
});
