import { describe, expect, it } from "vitest";
import { bodyEscape, headerRefusal, httpTokenEscapes } from "./http-request.escape";

describe("an HTTP body's escaping", () => {
  it("is JSON when the Content-Type says so, whatever the body looks like", () => {
    for (const type of ["application/json", "Application/JSON; charset=utf-8", "application/problem+json"])
      expect(bodyEscape({ headers: { "Content-Type": type }, body: "{entity.name}" })).toBe("json");
  });

  it("is percent-encoding for a form, and none for another declared type", () => {
    expect(
      bodyEscape({
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "a={entity.name}",
      }),
    ).toBe("url");
    expect(
      bodyEscape({ headers: { "content-type": "text/plain" }, body: '{"a":"{entity.name}"}' }),
    ).toBeUndefined();
  });

  it("without a Content-Type (sent as JSON), is JSON when the body's own text is JSON-shaped", () => {
    expect(bodyEscape({ headers: {}, body: '  {"name":"{entity.name}"}' })).toBe("json");
    expect(bodyEscape({ headers: {}, body: "[{entity.total}]" })).toBe("json");
    expect(bodyEscape({ headers: {}, body: '"{entity.name}"' })).toBe("json");
    // A body that is one token, or plain text, keeps its values as they are.
    expect(bodyEscape({ headers: {}, body: "{steps.code.body}" })).toBeUndefined();
    expect(bodyEscape({ headers: {}, body: "Hello {entity.name}" })).toBeUndefined();
    expect(bodyEscape({})).toBeUndefined();
  });

  it("goes with the URL's percent-encoding and the headers' one-line values", () => {
    expect(httpTokenEscapes({ url: "https://a.test", headers: {}, body: "{}" })).toEqual({
      url: "url",
      headers: "header",
      body: "json",
    });
  });
});

describe("header values the HTTP client cannot send", () => {
  it("are refused before sending, in words naming the header", () => {
    expect(headerRefusal({ "X-Customer": "Zoë Müller", "X-Trace": "a\tb" })).toBeNull();
    expect(headerRefusal({ "X-Customer": "李小龙" })).toBe(
      "The X-Customer header holds characters an HTTP header cannot carry. Put the value in the body, or write the token with | url to percent-encode it.",
    );
    expect(headerRefusal({ "X-Mood": "🙂" })).toContain("X-Mood");
  });
});
