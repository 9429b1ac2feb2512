import { describe, expect, test } from "vitest";
import { compareRuns, type RunPaths } from "./compare";

const labels: Record<string, string> = {
  big: "Total is more than 100",
  tag: "Add tag 'vip'",
  mail: "Email the customer",
};
const options = {
  order: ["t", "big", "tag", "mail"],
  labelOf: (id: string) => labels[id] ?? id,
  triggers: new Set(["t"]),
};
const run = (runId: string, then: string[], now: string[]): RunPaths => ({ runId, entity: null, then, now });

describe("compareRuns", () => {
  test("counts each step's runs then and now and names the runs whose path changed", () => {
    const result = compareRuns(
      [
        run("a", ["t", "big", "tag"], ["t", "big", "tag"]),
        run("b", ["t", "big"], ["t", "big", "tag", "mail"]),
        run("c", ["t", "big", "tag"], ["t", "big"]),
        run("d", ["t", "big"], ["t", "big", "tag", "mail"]),
      ],
      options,
    );
    expect(result.runs).toBe(4);
    expect(result.then).toEqual({ t: 4, big: 4, tag: 2 });
    expect(result.now).toEqual({ t: 4, big: 4, tag: 3, mail: 2 });
    expect(result.changed.map((r) => r.runId)).toEqual(["b", "c", "d"]);
    expect(result.sentences).toEqual([
      "1 run would no longer reach “Add tag 'vip'”",
      "2 runs would newly reach “Add tag 'vip'”",
      "2 runs would newly reach “Email the customer”",
    ]);
  });

  test("the same steps in another order are the same path; no runs and no changes are said so", () => {
    const same = compareRuns([run("a", ["t", "tag", "big"], ["t", "big", "tag"])], options);
    expect(same.changed).toEqual([]);
    expect(same.sentences).toEqual(["The run would take the same path"]);
    expect(compareRuns([], options).sentences).toEqual([
      "There are no runs of this automation yet to try it on",
    ]);
    const two = compareRuns([run("a", ["t"], ["t"]), run("b", ["t"], ["t"])], options);
    expect(two.sentences).toEqual(["All 2 runs would take the same path"]);
  });

  test("a run the trigger no longer accepts would not start, and a removed step is still named", () => {
    const result = compareRuns([run("a", ["t", "old"], [])], { ...options, labelOf: (id) => `step ${id}` });
    expect(result.sentences).toEqual([
      "1 run would not start: the trigger no longer accepts the event",
      "1 run would no longer reach “step old”",
    ]);
    expect(result.now).toEqual({});
  });
});
