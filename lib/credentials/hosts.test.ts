import { describe, expect, it } from "vitest";
import { allowedHostsInput, hostAllowed, hostOfUrl, hostRefusal, typedHost } from "./hosts";

describe("hostAllowed", () => {
  it("matches an exact host, whatever its case or trailing dot", () => {
    expect(hostAllowed(["api.example.com"], "api.example.com")).toBe(true);
    expect(hostAllowed(["api.example.com"], "API.Example.com.")).toBe(true);
    expect(hostAllowed(["api.example.com"], "example.com")).toBe(false);
    expect(hostAllowed(["api.example.com"], "evil-api.example.com")).toBe(false);
    expect(hostAllowed(["api.example.com"], "api.example.com.evil.test")).toBe(false);
  });

  it("matches a wildcard's subdomains at any depth, never the domain itself nor a look-alike", () => {
    const list = ["*.example.com"];
    expect(hostAllowed(list, "a.example.com")).toBe(true);
    expect(hostAllowed(list, "a.b.example.com")).toBe(true);
    expect(hostAllowed(list, "example.com")).toBe(false);
    expect(hostAllowed(list, "badexample.com")).toBe(false);
    expect(hostAllowed(list, "example.com.evil.test")).toBe(false);
  });

  it("matches addresses exactly, IPv6 with or without brackets; an empty list matches nothing", () => {
    expect(hostAllowed(["127.0.0.1"], "127.0.0.1")).toBe(true);
    expect(hostAllowed(["::1"], "[::1]")).toBe(true);
    expect(hostAllowed([], "api.example.com")).toBe(false);
  });
});

describe("allowedHostsInput", () => {
  it("lower-cases, trims and drops duplicates", () => {
    expect(allowedHostsInput.parse([" API.Example.com ", "api.example.com", "*.Shop.test", "[::1]"])).toEqual(
      ["api.example.com", "*.shop.test", "::1"],
    );
  });

  it("refuses a URL, a path, a bare or inner wildcard, and an empty entry, each with a sentence", () => {
    for (const [entry, words] of [
      ["https://api.example.com", "without https://"],
      ["api.example.com/v1", "without https://"],
      ["*", "wildcard"],
      ["*.com", "too wide"],
      ["a.*.example.com", "only '*.' before a domain"],
      ["", "Enter a host"],
      ["under_score.example.com", "not a host name"],
    ] as const) {
      const parsed = allowedHostsInput.safeParse([entry]);
      expect(parsed.success, entry).toBe(false);
      expect(parsed.error?.issues[0]?.message).toContain(words);
    }
  });
});

describe("hostRefusal", () => {
  it("names the credential and the host, and what the credential allows", () => {
    const credential = { name: "Loyalty API", allowedHosts: ["api.loyalty.test"] };
    expect(hostRefusal(credential, "api.loyalty.test")).toBeNull();
    expect(hostRefusal(credential, "evil.test")).toBe(
      "Refused to send the credential 'Loyalty API' to evil.test: it may only be sent to api.loyalty.test; an admin can add hosts in Settings → Credentials.",
    );
    expect(hostRefusal({ ...credential, allowedHosts: [] }, "evil.test")).toContain(
      "it may be sent to no host yet",
    );
    expect(hostRefusal(credential, "evil.test", { from: "api.loyalty.test" })).toMatch(
      /^Refused to follow api\.loyalty\.test's redirect to evil\.test with the credential 'Loyalty API'/,
    );
  });

  it("reads the host of an http(s) URL only", () => {
    expect(hostOfUrl("https://API.example.com:8443/x?y=1")).toBe("api.example.com");
    expect(hostOfUrl("http://[::1]:3000/")).toBe("::1");
    expect(hostOfUrl("ftp://example.com")).toBeNull();
    expect(hostOfUrl("{steps.a.url}")).toBeNull();
  });

  it("reads a typed URL's host when only its path or query has a token", () => {
    expect(typedHost("https://example.com/hook/{event.payload.id}")).toBe("example.com");
    expect(typedHost("https://{entity.shop}.example.com/x")).toBeNull();
    expect(typedHost("{entity.callback}/x")).toBeNull();
    expect(typedHost(undefined)).toBeNull();
  });
});
