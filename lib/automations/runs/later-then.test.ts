import { expect, test } from "vitest";
import { parseThenText, thenProblem } from "./later-then";

test("then must be a JSON object of at most 16 KB", () => {
  expect(thenProblem({ x: 1 })).toBeNull();
  expect(thenProblem([1])).toBe(`'then' must be a JSON object, such as { "note": "hello" }.`);
  expect(thenProblem("text")).toMatch(/must be a JSON object/);
  expect(thenProblem({ blob: "x".repeat(17_000) })).toBe(
    "'then' is 18 KB of JSON; a later step can be handed at most 16 KB.",
  );
});

test("then as typed: empty is {}, bad JSON says so", () => {
  expect(parseThenText("  ")).toEqual({ ok: true, then: {} });
  expect(parseThenText('{"x": "a"}')).toEqual({ ok: true, then: { x: "a" } });
  expect(parseThenText("{x")).toMatchObject({
    ok: false,
    error: expect.stringMatching(/^'then' is not valid JSON/),
  });
  expect(parseThenText("42")).toMatchObject({
    ok: false,
    error: expect.stringMatching(/must be a JSON object/),
  });
});
