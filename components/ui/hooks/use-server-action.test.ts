import { redirect } from "next/navigation";
import { describe, expect, test } from "vitest";
import { reach, UNREACHABLE, unreachable } from "./use-server-action";

describe("reach: a server action's answer, never a throw", () => {
  test("the server's answer, yes or no, is handed on as it came", async () => {
    expect(await reach(Promise.resolve({ ok: true as const, data: 1 }))).toEqual({ ok: true, data: 1 });
    const no = await reach(Promise.resolve({ ok: false as const, error: "Only admins can do that." }));
    expect(no).toEqual({ ok: false, error: "Only admins can do that." });
    expect(unreachable(no)).toBe(false);
  });

  test("a request that never reached the server says so in the one sentence", async () => {
    const answer = await reach<number>(Promise.reject(new TypeError("Failed to fetch")));
    expect(answer).toEqual({ ok: false, error: UNREACHABLE, unreachable: true });
    expect(unreachable(answer)).toBe(true);
  });

  test("an action's redirect goes on to the router instead of reading as a failure", async () => {
    let thrown: unknown;
    try {
      redirect("/automations/a1");
    } catch (error) {
      thrown = error;
    }
    await expect(reach(Promise.reject(thrown))).rejects.toBe(thrown);
  });
});
