import { describe, expect, test } from "vitest";
import { compareRuns, type RunPaths, type RunReplay } from "./compare";

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

describe("compareRuns through waits", () => {
  const waits = {
    order: ["t", "w", "big", "ok", "mail"],
    labelOf: (id: string) =>
      ({ w: "Wait 1 hour", big: "Total is at least 100", mail: "Email", ok: "Approval" })[id] ?? id,
    triggers: new Set(["t"]),
    conditions: new Set(["big"]),
  };
  const replay = (
    runId: string,
    then: string[],
    possible: string[][],
    extra: Partial<RunReplay> = {},
  ): RunReplay => ({
    runId,
    entity: null,
    then,
    possible,
    ...extra,
  });

  test("a condition the run passes adds nothing to its path; one it fails shows in the step it no longer reaches", () => {
    const result = compareRuns(
      [
        replay("a", ["t", "w", "mail"], [["t", "w", "big", "mail"]]),
        replay("b", ["t", "w", "mail"], [["t", "w", "big"]]),
      ],
      waits,
    );
    expect(result.changed.map((r) => r.runId)).toEqual(["b"]);
    expect(result.changed[0]).toMatchObject({ lost: ["mail"], gained: [] });
    expect(result.headline).toBe("2 runs: 1 would take a different path; 1 would take the same path");
    expect(result.sentences).toEqual(["1 run would no longer reach “Email”"]);
    expect(result.now).toEqual({ t: 2, w: 2, big: 2, mail: 1 });
  });

  test("in flight: a waiting run is judged on its steps so far, a running one only on the steps it took", () => {
    const result = compareRuns(
      [
        replay("waits", ["t", "w"], [["t", "w"]], { inFlight: "waiting" }),
        replay("waits-elsewhere", ["t", "w"], [["t", "big"]], { inFlight: "waiting" }),
        replay("runs", ["t"], [["t", "w", "mail"]], { inFlight: "running" }),
        replay("runs-elsewhere", ["t", "mail"], [["t", "w"]], { inFlight: "running" }),
      ],
      waits,
    );
    expect(result.changed.map((r) => r.runId)).toEqual(["waits-elsewhere", "runs-elsewhere"]);
    expect(result.unknown.map((r) => [r.runId, r.notKnown])).toEqual([
      ["waits", "waiting"],
      ["runs", "running"],
    ]);
    expect(result.headline).toBe(
      "4 runs: 2 would take a different path; 1 is still waiting, so its later steps are not known yet; 1 is still running, so its later steps are not known yet",
    );
    // Under the headline only the steps' sentences, so the runs not known yet are not said twice.
    expect(result.differences.some((s) => /still (waiting|running)/.test(s))).toBe(false);
    expect(result.differences).toEqual(result.sentences.filter((s) => !/still (waiting|running)/.test(s)));
    expect(result.differences.length).toBeGreaterThan(0);
  });

  test("an outcome the run never had: every possible path is counted; the steps on some of them are 'might'", () => {
    const result = compareRuns(
      [
        replay(
          "new-approval",
          ["t", "mail"],
          [
            ["t", "ok", "mail"],
            ["t", "ok"],
            ["t", "ok"],
          ],
          {
            undecided: ["ok"],
          },
        ),
        replay(
          "either-way",
          ["t", "ok", "mail"],
          [
            ["t", "ok", "mail"],
            ["t", "ok"],
          ],
          { undecided: ["ok"] },
        ),
      ],
      waits,
    );
    expect(result.changed).toEqual([
      expect.objectContaining({
        runId: "new-approval",
        now: ["t", "ok"],
        maybe: ["mail"],
        mightLose: ["mail"],
      }),
    ]);
    expect(result.unknown).toEqual([expect.objectContaining({ runId: "either-way", notKnown: "outcome" })]);
    expect(result.sentences).toEqual([
      "1 run would newly reach “Approval”",
      "1 run might no longer reach “Email”, depending on “Approval”",
      "1 run depends on a decision or event the real run never had, so its later steps are not known",
    ]);
    expect(result.headline).toBe(
      "2 runs: 1 would take a different path; 1 depends on a decision or event the real run never had, so its later steps are not known",
    );
  });
});
