import { describe, expect, it } from "vitest";
import { runScript } from "./pool";
import type { ScriptInput } from "./sandbox";

const input: ScriptInput = {
  event: { type: "order.paid", at: "2026-12-01T09:00:00.000Z" },
  entity: { number: "#1001", total: 120, tags: ["new"] },
  steps: { check: { status: 200 } },
  variables: {},
};

async function failure(source: string) {
  const outcome = await runScript("shop-1", source, input);
  if (outcome.ok) throw new Error(`expected '${source}' to fail, it returned ${JSON.stringify(outcome)}`);
  return outcome;
}

describe("runScript", () => {
  it("collects the actions a script asks for, as the nodes they name, and returns what it returned", async () => {
    const outcome = await runScript(
      "shop-1",
      `actions.tag("vip");
       actions.email("ann@example.com", "Thanks", "Your order " + entity.number);
       actions.later("3d", { step: "check-in", total: entity.total }, { key: "k1" });
       return { score: entity.total * 2, status: steps.check.status, at: event.at };`,
      input,
    );
    expect(outcome).toMatchObject({
      ok: true,
      result: { score: 240, status: 200, at: "2026-12-01T09:00:00.000Z" },
      actions: [
        { call: "tag", type: "auto.action.add_tag", params: { tag: "vip" } },
        {
          call: "email",
          type: "auto.action.send_email",
          params: { to: "ann@example.com", subject: "Thanks", body: "Your order #1001" },
        },
        {
          call: "later",
          type: "auto.action.later",
          params: { when: "3d", step: "check-in", key: "k1", then: { step: "check-in", total: 120 } },
        },
      ],
    });
  });

  it("wraps a return value that is not an object, and an absent one is empty", async () => {
    expect(await runScript("shop-1", "return 3", input)).toMatchObject({ ok: true, result: { value: 3 } });
    expect(await runScript("shop-1", "actions.note('hi')", input)).toMatchObject({ ok: true, result: {} });
  });

  it("reports an exception with the script's own message and line", async () => {
    expect(await failure("const a = 1;\n\nthrow new Error('no stock for ' + entity.number);")).toMatchObject({
      error: "no stock for #1001 (line 3).",
      line: 3,
    });
    expect(await failure("const a = 1;\nmissing.call();")).toMatchObject({
      error: "ReferenceError: 'missing' is not defined (line 2).",
      line: 2,
    });
  });

  it("stops an endless loop after its second of CPU, saying so", async () => {
    const outcome = await failure("while (true) {}");
    expect(outcome.error).toBe("The script ran for more than 1 second and was stopped.");
  });

  it("gives the script nothing of the server: no require, process, fetch, or a way out through constructors", async () => {
    expect(await failure("return require('fs')")).toMatchObject({
      error: expect.stringContaining("'require' is not defined"),
    });
    expect(await failure("return process.env")).toMatchObject({
      error: expect.stringContaining("'process' is not defined"),
    });
    expect(await failure("return fetch('http://example.com')")).toMatchObject({
      error: expect.stringContaining("'fetch' is not defined"),
    });
    expect(await failure("return globalThis.constructor.constructor('return process')()")).toMatchObject({
      error: expect.stringContaining("'process' is not defined"),
    });
    // A module import finds no module loader: nothing comes back but an empty, settled promise.
    expect(await runScript("shop-1", "return import('fs')", input)).toMatchObject({ ok: true, result: {} });
    // The host is untouched.
    expect(typeof process.exit).toBe("function");
  });

  it("refuses 100 MB inside the sandbox's 64 MB, and deep recursion, without hurting the host", async () => {
    expect(
      (await failure("const big = new Array(100 * 1024 * 1024 / 8).fill(1.5); return big.length")).error,
    ).toBe("The script used more than 64 MB of memory and was stopped (line 1).");
    expect((await failure("function f() { return f(); }\nreturn f();")).error).toMatch(/stack overflow/);
    // A fresh sandbox afterwards works as before.
    expect(await runScript("shop-1", "return { ok: 1 }", input)).toMatchObject({
      ok: true,
      result: { ok: 1 },
    });
  });

  it("has no clock or randomness: time comes from event.at", async () => {
    expect((await failure("return Date.now()")).error).toBe(
      "Date is not available in a code step; read the time from event.at (line 1).",
    );
    expect((await failure("return new Date()")).error).toMatch(/^Date is not available/);
    expect((await failure("return Math.random()")).error).toBe(
      "Math.random is not available in a code step (line 1).",
    );
  });

  it("gives read-only copies: changing the record in the script changes nothing", async () => {
    expect((await failure("entity.total = 0;")).error).toBe("TypeError: 'total' is read-only (line 1).");
    expect((await failure("entity.tags.push('x');")).error).toMatch(/not extensible|read-only/);
    expect(input.entity).toEqual({ number: "#1001", total: 120, tags: ["new"] });
  });

  it("checks each action as its node would, and at most 50 of them", async () => {
    expect((await failure("actions.tag('');")).error).toBe("actions.tag(tag): tag cannot be empty (line 1).");
    expect((await failure("\nactions.later('3d', {});")).error).toBe(
      "actions.later(when, then, { key?, step? }): step is required (line 2).",
    );
    expect((await failure("for (let i = 0; i < 51; i++) actions.tag('t' + i);")).error).toBe(
      "A code step can take at most 50 actions; actions.tag would be the 51st (line 1).",
    );
  });

  it("refuses a return value over 16 KB and a source over 64 KB", async () => {
    expect((await failure("return 'x'.repeat(20000)")).error).toBe(
      "The script's return value is larger than 16 KB of JSON.",
    );
    expect((await failure(`// ${"x".repeat(65_000)}`)).error).toBe("The script is longer than 64 KB.");
  });

  it("reports a syntax error with its line", async () => {
    expect(await failure("const a = 1;\nreturn (a +;")).toMatchObject({
      line: 2,
      error: expect.stringMatching(/^SyntaxError/),
    });
  });
});
