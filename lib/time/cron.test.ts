import { describe, expect, it } from "vitest";
import { compileSchedule, cronProblem, nextFireTimes, nextScheduleDstDay, timeZoneProblem } from "./cron";

const iso = (dates: Date[]) => dates.map((d) => d.toISOString());
const next = (cron: string, tz: string, from: string, count = 3) =>
  iso(nextFireTimes(cron, tz, new Date(from), count));

describe("DST: America/New_York, a 02:30 daily schedule", () => {
  it("spring forward (2026-03-08, 02:00 → 03:00): 02:30 does not exist, so it fires once at 03:00 EDT", () => {
    expect(next("30 2 * * *", "America/New_York", "2026-03-07T12:00:00Z")).toEqual([
      "2026-03-08T07:00:00.000Z", // 03:00 EDT, the first valid instant after the gap
      "2026-03-09T06:30:00.000Z", // 02:30 EDT
      "2026-03-10T06:30:00.000Z",
    ]);
  });

  it("fall back (2026-11-01, 02:00 → 01:00): 02:30 happens once, an hour later in UTC", () => {
    expect(next("30 2 * * *", "America/New_York", "2026-10-31T12:00:00Z")).toEqual([
      "2026-11-01T07:30:00.000Z", // 02:30 EST
      "2026-11-02T07:30:00.000Z",
      "2026-11-03T07:30:00.000Z",
    ]);
  });

  it("fall back: 01:30, which occurs twice, fires once (the first time), also when asked from between the two", () => {
    expect(next("30 1 * * *", "America/New_York", "2026-10-31T12:00:00Z", 2)).toEqual([
      "2026-11-01T05:30:00.000Z", // 01:30 EDT; 01:30 EST (06:30Z) is not a fire time
      "2026-11-02T06:30:00.000Z",
    ]);
    expect(next("30 1 * * *", "America/New_York", "2026-11-01T05:31:00Z", 1)).toEqual([
      "2026-11-02T06:30:00.000Z",
    ]);
  });
});

describe("DST: Europe/London", () => {
  it("a 02:30 daily schedule keeps its local time across both changes (London moves at 01:00)", () => {
    expect(next("30 2 * * *", "Europe/London", "2026-03-28T12:00:00Z", 2)).toEqual([
      "2026-03-29T01:30:00.000Z", // 02:30 BST
      "2026-03-30T01:30:00.000Z",
    ]);
    expect(next("30 2 * * *", "Europe/London", "2026-10-24T12:00:00Z", 2)).toEqual([
      "2026-10-25T02:30:00.000Z", // 02:30 GMT
      "2026-10-26T02:30:00.000Z",
    ]);
  });

  it("01:30 is skipped in spring (fires once at 02:00 BST) and repeated in autumn (fires once)", () => {
    expect(next("30 1 * * *", "Europe/London", "2026-03-28T12:00:00Z", 2)).toEqual([
      "2026-03-29T01:00:00.000Z", // 02:00 BST
      "2026-03-30T00:30:00.000Z",
    ]);
    expect(next("30 1 * * *", "Europe/London", "2026-10-24T12:00:00Z", 2)).toEqual([
      "2026-10-25T00:30:00.000Z", // 01:30 BST, not again at 01:30 GMT
      "2026-10-26T01:30:00.000Z",
    ]);
  });
});

describe("DST: Australia/Lord_Howe's half-hour shift", () => {
  it("spring (2026-10-04, 02:00 → 02:30): 02:15 fires once at 02:30 +11", () => {
    expect(next("15 2 * * *", "Australia/Lord_Howe", "2026-10-03T00:00:00Z", 2)).toEqual([
      "2026-10-03T15:30:00.000Z", // 02:30 +11:00
      "2026-10-04T15:15:00.000Z", // 02:15 +11:00
    ]);
  });

  it("autumn (2026-04-05, 02:00 → 01:30): 01:45 occurs twice and fires once", () => {
    expect(next("45 1 * * *", "Australia/Lord_Howe", "2026-04-04T00:00:00Z", 2)).toEqual([
      "2026-04-04T14:45:00.000Z", // 01:45 +11:00; 01:45 +10:30 (15:15Z) is not a fire time
      "2026-04-05T15:15:00.000Z", // 01:45 +10:30 the next day
    ]);
  });
});

describe("interval schedules keep their rhythm in real time", () => {
  it("every 30 minutes skips the minutes that do not exist", () => {
    expect(next("*/30 * * * *", "America/New_York", "2026-03-08T06:00:00Z", 3)).toEqual([
      "2026-03-08T06:30:00.000Z", // 01:30 EST
      "2026-03-08T07:00:00.000Z", // 03:00 EDT
      "2026-03-08T07:30:00.000Z",
    ]);
  });
});

describe("fields", () => {
  it("day of month and day of week both set: either one fires (OR)", () => {
    // The 13th of each month, and every Friday.
    expect(next("0 9 13 * 5", "UTC", "2026-02-01T00:00:00Z", 6)).toEqual([
      "2026-02-06T09:00:00.000Z",
      "2026-02-13T09:00:00.000Z", // a Friday and the 13th: once
      "2026-02-20T09:00:00.000Z",
      "2026-02-27T09:00:00.000Z",
      "2026-03-06T09:00:00.000Z",
      "2026-03-13T09:00:00.000Z",
    ]);
    expect(next("0 9 13 * 1", "UTC", "2026-04-01T00:00:00Z", 3)).toEqual([
      "2026-04-06T09:00:00.000Z", // Monday
      "2026-04-13T09:00:00.000Z", // the 13th (also a Monday)
      "2026-04-20T09:00:00.000Z",
    ]);
  });

  it("leap day fires only in leap years", () => {
    expect(next("0 12 29 2 *", "Europe/Paris", "2026-01-01T00:00:00Z", 2)).toEqual([
      "2028-02-29T11:00:00.000Z",
      "2032-02-29T11:00:00.000Z",
    ]);
  });

  it("takes names, lists, ranges and steps", () => {
    expect(next("0 8 * JAN,JUL MON-FRI", "UTC", "2026-06-30T00:00:00Z", 2)).toEqual([
      "2026-07-01T08:00:00.000Z",
      "2026-07-02T08:00:00.000Z",
    ]);
    expect(next("10-20/5 * * * *", "UTC", "2026-01-01T00:00:00Z", 4)).toEqual([
      "2026-01-01T00:10:00.000Z",
      "2026-01-01T00:15:00.000Z",
      "2026-01-01T00:20:00.000Z",
      "2026-01-01T01:10:00.000Z",
    ]);
  });

  it("fires strictly after `from`", () => {
    expect(next("0 9 * * *", "UTC", "2026-01-01T09:00:00Z", 1)).toEqual(["2026-01-02T09:00:00.000Z"]);
  });
});

describe("problems in plain English", () => {
  it("names the field croner refused and its range", () => {
    expect(cronProblem("0 25 * * *")).toBe(
      "'0 25 * * *': hour must be 0–23, or a list, range or */step of them",
    );
    expect(cronProblem("60 * * * *")).toMatch(/^'60 \* \* \* \*': minute must be 0–59/);
    expect(cronProblem("* * 32 * *")).toMatch(/day of month must be 1–31/);
    expect(cronProblem("* * * 13 *")).toMatch(/month must be 1–12 or JAN–DEC/);
    expect(cronProblem("* * * * 8")).toMatch(/day of week must be 0–7/);
    expect(cronProblem("*/0 * * * *")).toMatch(/minute must be/);
  });

  it("refuses the wrong number of fields and dates that never happen", () => {
    expect(cronProblem("0 9 * *")).toBe(
      "'0 9 * *': must have five fields (minute hour day month weekday), such as 0 9 * * 1",
    );
    expect(cronProblem("@daily")).toMatch(/five fields/);
    expect(cronProblem("0 0 30 2 *")).toBe("'0 0 30 2 *' never happens (no such date)");
    expect(cronProblem("0 9 * * 1-5")).toBeNull();
  });

  it("refuses an unknown time zone, and computes nothing for a broken schedule", () => {
    expect(timeZoneProblem("Mars/Olympus")).toBe(
      "'Mars/Olympus' is not a time zone; use one such as Europe/Paris or UTC",
    );
    expect(timeZoneProblem("UTC")).toBeNull();
    expect(nextFireTimes("0 25 * * *", "UTC", new Date())).toEqual([]);
    expect(compileSchedule("0 9 * * *", "Nowhere/Town")).toBeNull();
  });
});

describe("a DST rule (issue 53)", () => {
  it("left out or spelled out as gap_end + once, it is croner's rule exactly: no schedule moves", () => {
    const from = new Date("2026-01-01T00:00:00Z");
    for (const [cron, zone] of [
      ["30 2 * * *", "Europe/Paris"],
      ["30 1 * * *", "America/New_York"],
      ["15 2 * * 0", "Australia/Lord_Howe"],
      ["0 0 * * *", "America/Santiago"],
      ["30 23 * * *", "America/Nuuk"],
      ["*/15 * * * *", "Europe/London"],
    ] as const) {
      const plain = iso(nextFireTimes(cron, zone, from, 400));
      expect(iso(nextFireTimes(cron, zone, from, 400, { gap: "gap_end", repeat: "once" }))).toEqual(plain);
      expect(iso(nextFireTimes(cron, zone, from, 400, {}))).toEqual(plain);
    }
  });

  it("leaves schedules that repeat through the hours in real time", () => {
    expect(
      iso(
        nextFireTimes("*/30 * * * *", "Europe/Paris", new Date("2026-03-29T00:15:00Z"), 3, { gap: "skip" }),
      ),
    ).toEqual(["2026-03-29T00:30:00.000Z", "2026-03-29T01:00:00.000Z", "2026-03-29T01:30:00.000Z"]);
  });

  it("names the next day a written-out time falls in a gap or repeat, with what happens", () => {
    const from = new Date("2026-01-01T00:00:00Z");
    expect(nextScheduleDstDay("30 2 * * *", "Europe/Paris", from)).toEqual({
      kind: "gap",
      local: "2026-03-29T02:30",
      fires: ["2026-03-29T01:00:00.000Z"],
      sentence: "On 29 March 2026 02:30 does not exist in Paris: the run moves to 03:00.",
    });
    expect(nextScheduleDstDay("30 2 * * *", "Europe/Paris", from, { gap: "skip" })?.sentence).toBe(
      "On 29 March 2026 02:30 does not exist in Paris: the run is skipped that day.",
    );
    expect(
      nextScheduleDstDay("30 2 * * *", "Europe/Paris", new Date("2026-04-01T00:00:00Z"), { repeat: "twice" }),
    ).toMatchObject({
      kind: "repeat",
      fires: ["2026-10-25T00:30:00.000Z", "2026-10-25T01:30:00.000Z"],
      sentence: "On 25 October 2026 02:30 happens twice in Paris: the run happens at both.",
    });
    expect(nextScheduleDstDay("0 9 * * *", "Europe/Paris", from)).toBeNull();
    expect(nextScheduleDstDay("30 2 * * *", "Asia/Tokyo", from)).toBeNull();
  });
});
