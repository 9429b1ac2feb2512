import { describe, expect, it } from "vitest";
import {
  clampResumeAt,
  MAX_WAIT_MS,
  MIN_WAIT_MS,
  nextWallClock,
  resumeAtFor,
  waitDurationMs,
} from "./resume-at";
import { waitUntil, type WaitUntilParams } from "./wait-until";

const at = (iso: string) => new Date(iso);

/** The next `count` resume times from `from`, each computed from the one before: how a run would see them. */
function sequence(params: WaitUntilParams, from: string, count: number): string[] {
  const times: string[] = [];
  let cursor = at(from);
  for (let i = 0; i < count; i++) {
    cursor = nextWallClock(params, cursor);
    times.push(cursor.toISOString());
  }
  return times;
}

describe("waitDurationMs", () => {
  it("is the duration asked for, unclamped", () => {
    expect(waitDurationMs({ duration: 30, unit: "minutes" })).toBe(1_800_000);
    expect(waitDurationMs({ duration: 2, unit: "hours" })).toBe(7_200_000);
    expect(waitDurationMs({ duration: 30, unit: "days" })).toBe(MAX_WAIT_MS);
    expect(waitDurationMs({ duration: 31, unit: "days" })).toBeGreaterThan(MAX_WAIT_MS);
    expect(waitDurationMs({ duration: 1, unit: "minutes" })).toBe(MIN_WAIT_MS);
  });
});

describe("clampResumeAt", () => {
  const from = at("2026-03-02T09:00:00.000Z");

  it("keeps a time inside the bounds", () => {
    expect(clampResumeAt(at("2026-03-02T11:00:00.000Z"), from).toISOString()).toBe(
      "2026-03-02T11:00:00.000Z",
    );
    expect(clampResumeAt(at("2026-03-02T09:01:00.000Z"), from).toISOString()).toBe(
      "2026-03-02T09:01:00.000Z",
    );
    expect(clampResumeAt(at("2026-04-01T09:00:00.000Z"), from).toISOString()).toBe(
      "2026-04-01T09:00:00.000Z",
    );
  });

  it("moves a time under a minute away, or in the past, to one minute after", () => {
    expect(clampResumeAt(at("2026-03-02T09:00:30.000Z"), from).toISOString()).toBe(
      "2026-03-02T09:01:00.000Z",
    );
    expect(clampResumeAt(from, from).toISOString()).toBe("2026-03-02T09:01:00.000Z");
    expect(clampResumeAt(at("2026-03-01T09:00:00.000Z"), from).toISOString()).toBe(
      "2026-03-02T09:01:00.000Z",
    );
  });

  it("moves a time over 30 days away to 30 days after", () => {
    expect(clampResumeAt(at("2026-04-01T09:00:00.001Z"), from).toISOString()).toBe(
      "2026-04-01T09:00:00.000Z",
    );
    expect(clampResumeAt(at("2027-01-01T00:00:00.000Z"), from).toISOString()).toBe(
      "2026-04-01T09:00:00.000Z",
    );
  });

  it("refuses an invalid date rather than guessing", () => {
    expect(() => clampResumeAt(new Date(Number.NaN), from)).toThrow(RangeError);
    expect(() => clampResumeAt(from, new Date(Number.NaN))).toThrow(RangeError);
  });
});

describe("nextWallClock", () => {
  it("is the next time of day, strictly after from", () => {
    const params = { time: "18:30", timezone: "UTC" };
    expect(nextWallClock(params, at("2026-03-02T10:00:00.000Z")).toISOString()).toBe(
      "2026-03-02T18:30:00.000Z",
    );
    expect(nextWallClock(params, at("2026-03-02T18:29:59.999Z")).toISOString()).toBe(
      "2026-03-02T18:30:00.000Z",
    );
    // At the very instant, the next one is tomorrow's.
    expect(nextWallClock(params, at("2026-03-02T18:30:00.000Z")).toISOString()).toBe(
      "2026-03-03T18:30:00.000Z",
    );
    expect(nextWallClock(params, at("2026-03-02T18:30:00.001Z")).toISOString()).toBe(
      "2026-03-03T18:30:00.000Z",
    );
  });

  it("reads the time in the zone, not in UTC", () => {
    // 09:00 in Paris is 08:00Z in winter (CET) and 07:00Z in summer (CEST).
    const params = { time: "09:00", timezone: "Europe/Paris" };
    expect(nextWallClock(params, at("2026-01-15T12:00:00Z")).toISOString()).toBe("2026-01-16T08:00:00.000Z");
    expect(nextWallClock(params, at("2026-07-15T12:00:00Z")).toISOString()).toBe("2026-07-16T07:00:00.000Z");
    // 09:00 in Tokyo on 2026-03-03 is still 2026-03-03T00:00Z; from 2026-03-02T23:00Z it is an hour away.
    expect(
      nextWallClock({ time: "09:00", timezone: "Asia/Tokyo" }, at("2026-03-02T23:00:00Z")).toISOString(),
    ).toBe("2026-03-03T00:00:00.000Z");
  });

  it("skips a weekend for the next working day", () => {
    const params = { time: "09:00", timezone: "Europe/Paris", weekdays: [1, 2, 3, 4, 5] };
    // Friday 2026-03-06 at 10:00 in Paris: the next working day's 9:00 is Monday 2026-03-09.
    expect(nextWallClock(params, at("2026-03-06T09:00:00Z")).toISOString()).toBe("2026-03-09T08:00:00.000Z");
    // Friday before 9:00: still Friday.
    expect(nextWallClock(params, at("2026-03-06T06:00:00Z")).toISOString()).toBe("2026-03-06T08:00:00.000Z");
    // Saturday and Sunday: Monday.
    expect(nextWallClock(params, at("2026-03-07T07:00:00Z")).toISOString()).toBe("2026-03-09T08:00:00.000Z");
    expect(nextWallClock(params, at("2026-03-08T20:00:00Z")).toISOString()).toBe("2026-03-09T08:00:00.000Z");
  });

  it("takes ISO weekdays, 7 being Sunday", () => {
    // From Monday 2026-03-02: the next Sunday is 2026-03-08, the next Mon/Wed after Monday 10:00 is Wednesday.
    expect(
      nextWallClock(
        { time: "09:00", timezone: "Europe/Paris", weekdays: [7] },
        at("2026-03-02T09:00:00Z"),
      ).toISOString(),
    ).toBe("2026-03-08T08:00:00.000Z");
    expect(
      sequence({ time: "09:00", timezone: "Europe/Paris", weekdays: [3, 1] }, "2026-03-02T09:00:00Z", 3),
    ).toEqual(["2026-03-04T08:00:00.000Z", "2026-03-09T08:00:00.000Z", "2026-03-11T08:00:00.000Z"]);
    expect(
      nextWallClock(
        { time: "12:00", timezone: "UTC", weekdays: [6] },
        at("2026-03-02T09:00:00Z"),
      ).toISOString(),
    ).toBe("2026-03-07T12:00:00.000Z");
  });

  describe("across DST", () => {
    // America/New_York springs forward on Sunday 2026-03-08: 02:00 EST becomes 03:00 EDT.
    //
    //   01:59 EST (06:59Z) ─▶ 03:00 EDT (07:00Z)      02:30 does not exist that day
    it("resumes once, at the end of the gap, for a time that does not exist (New York, 02:30)", () => {
      const params = { time: "02:30", timezone: "America/New_York" };
      expect(sequence(params, "2026-03-07T12:00:00Z", 3)).toEqual([
        "2026-03-08T07:00:00.000Z", // 03:00 EDT, the first valid instant after the gap
        "2026-03-09T06:30:00.000Z", // 02:30 EDT the day after: not a second resume on the 8th
        "2026-03-10T06:30:00.000Z",
      ]);
      expect(nextWallClock(params, at("2026-03-08T06:59:00Z")).toISOString()).toBe(
        "2026-03-08T07:00:00.000Z",
      );
    });

    it("keeps the gap rule with weekdays (New York, Sundays at 02:30)", () => {
      expect(
        sequence({ time: "02:30", timezone: "America/New_York", weekdays: [7] }, "2026-03-07T12:00:00Z", 2),
      ).toEqual(["2026-03-08T07:00:00.000Z", "2026-03-15T06:30:00.000Z"]);
    });

    // Europe/London springs forward on Sunday 2026-03-29: 01:00 GMT becomes 02:00 BST. There the
    // hour that does not exist is 01:00–01:59, so 01:30 is the one in the gap; 02:30 exists.
    //
    //   00:59 GMT (00:59Z) ─▶ 02:00 BST (01:00Z)
    it("resumes once, at the end of the gap, for a time that does not exist (London, 01:30)", () => {
      expect(sequence({ time: "01:30", timezone: "Europe/London" }, "2026-03-28T12:00:00Z", 2)).toEqual([
        "2026-03-29T01:00:00.000Z", // 02:00 BST
        "2026-03-30T00:30:00.000Z", // 01:30 BST the day after
      ]);
      expect(sequence({ time: "02:30", timezone: "Europe/London" }, "2026-03-28T12:00:00Z", 2)).toEqual([
        "2026-03-29T01:30:00.000Z", // 02:30 BST: it exists, just an hour closer in UTC
        "2026-03-30T01:30:00.000Z",
      ]);
    });

    // America/New_York falls back on Sunday 2026-11-01: 02:00 EDT becomes 01:00 EST, so 01:30
    // happens at 05:30Z (EDT) and again at 06:30Z (EST).
    it("resumes once, at the first occurrence, for a time that happens twice (New York, 01:30)", () => {
      const params = { time: "01:30", timezone: "America/New_York" };
      expect(sequence(params, "2026-10-31T12:00:00Z", 2)).toEqual([
        "2026-11-01T05:30:00.000Z", // 01:30 EDT
        "2026-11-02T06:30:00.000Z", // 01:30 EST the next day, not 06:30Z on the 1st
      ]);
      // A wait that starts between the two occurrences (01:00 EST, the repeated hour) finds that
      // day's 01:30 already past: the time resumes only at its first occurrence.
      expect(nextWallClock(params, at("2026-11-01T06:00:00Z")).toISOString()).toBe(
        "2026-11-02T06:30:00.000Z",
      );
    });

    // Europe/London falls back on Sunday 2026-10-25: 02:00 BST becomes 01:00 GMT.
    it("resumes once, at the first occurrence, for a time that happens twice (London, 01:30)", () => {
      expect(sequence({ time: "01:30", timezone: "Europe/London" }, "2026-10-24T12:00:00Z", 2)).toEqual([
        "2026-10-25T00:30:00.000Z", // 01:30 BST
        "2026-10-26T01:30:00.000Z", // 01:30 GMT the next day
      ]);
    });

    // Australia/Lord_Howe shifts by 30 minutes. On 2026-10-04 02:00 (+10:30) becomes 02:30 (+11);
    // on 2026-04-05 02:00 (+11) becomes 01:30 (+10:30).
    it("handles a 30-minute shift (Lord Howe)", () => {
      expect(sequence({ time: "02:15", timezone: "Australia/Lord_Howe" }, "2026-10-03T00:00:00Z", 2)).toEqual(
        [
          "2026-10-03T15:30:00.000Z", // 02:30 +11 on the 4th: the end of the half-hour gap
          "2026-10-04T15:15:00.000Z", // 02:15 +11 on the 5th
        ],
      );
      expect(sequence({ time: "01:45", timezone: "Australia/Lord_Howe" }, "2026-04-04T00:00:00Z", 2)).toEqual(
        [
          "2026-04-04T14:45:00.000Z", // 01:45 +11 on the 5th; 01:45 +10:30 (15:15Z) is skipped
          "2026-04-05T15:15:00.000Z", // 01:45 +10:30 on the 6th
        ],
      );
    });

    // America/Santiago springs forward at midnight: on 2026-09-06 00:00 (-04) becomes 01:00 (-03).
    it("handles a gap at midnight (Santiago)", () => {
      expect(
        nextWallClock(
          { time: "00:00", timezone: "America/Santiago" },
          at("2026-09-05T12:00:00Z"),
        ).toISOString(),
      ).toBe("2026-09-06T04:00:00.000Z");
    });
  });
});

describe("resumeAtFor", () => {
  const from = at("2026-03-06T17:00:00.000Z"); // Friday, 18:00 in Paris

  it("adds a wait's duration", () => {
    const resume = (params: unknown) =>
      resumeAtFor({ type: "auto.control.wait", params }, from).toISOString();
    expect(resume({ duration: 2, unit: "days" })).toBe("2026-03-08T17:00:00.000Z");
    expect(resume({ duration: 3, unit: "hours" })).toBe("2026-03-06T20:00:00.000Z");
    expect(resume({ duration: 1, unit: "minutes" })).toBe("2026-03-06T17:01:00.000Z");
  });

  it("clamps a stored wait over 30 days to 30 days, however long", () => {
    const resume = (params: unknown) =>
      resumeAtFor({ type: "auto.control.wait", params }, from).toISOString();
    expect(resume({ duration: 45, unit: "days" })).toBe("2026-04-05T17:00:00.000Z");
    expect(resume({ duration: Number.MAX_SAFE_INTEGER, unit: "days" })).toBe("2026-04-05T17:00:00.000Z");
  });

  it("finds the next wall-clock time of a wait until", () => {
    const node = {
      type: "auto.control.wait_until",
      params: { time: "09:00", timezone: "Europe/Paris", weekdays: [1, 2, 3, 4, 5] },
    };
    expect(resumeAtFor(node, from).toISOString()).toBe("2026-03-09T08:00:00.000Z");
  });

  it("waits at least a minute for a time only seconds away", () => {
    const node = { type: "auto.control.wait_until", params: { time: "09:00", timezone: "UTC" } };
    expect(resumeAtFor(node, at("2026-03-06T08:59:30.000Z")).toISOString()).toBe("2026-03-06T09:00:30.000Z");
  });

  it("checks params again and refuses anything but a timed wait", () => {
    expect(() =>
      resumeAtFor({ type: "auto.control.wait", params: { duration: 0, unit: "hours" } }, from),
    ).toThrow("Wait: duration must be at least 1.");
    expect(() =>
      resumeAtFor({ type: "auto.control.wait_until", params: { time: "25:00", timezone: "UTC" } }, from),
    ).toThrow("Wait until: time must be a time of day such as 09:00 or 18:30 (24-hour).");
    expect(() => resumeAtFor({ type: "auto.action.add_tag", params: { tag: "x" } }, from)).toThrow(
      "'auto.action.add_tag' is not a timed wait.",
    );
  });
});

describe("with the merchant's DST rule (issue 53)", () => {
  it("skips or shifts a time that does not exist (New York, 02:30 on 2026-03-08)", () => {
    const base = { time: "02:30", timezone: "America/New_York" };
    expect(sequence({ ...base, dst: { gap: "skip" } }, "2026-03-07T12:00:00Z", 2)).toEqual([
      "2026-03-09T06:30:00.000Z", // not on the 8th at all
      "2026-03-10T06:30:00.000Z",
    ]);
    expect(sequence({ ...base, dst: { gap: "shift" } }, "2026-03-07T12:00:00Z", 2)).toEqual([
      "2026-03-08T07:30:00.000Z", // 02:30 EST = 03:30 EDT
      "2026-03-09T06:30:00.000Z",
    ]);
    // Spelled out, the default is today's rule.
    expect(sequence({ ...base, dst: { gap: "gap_end", repeat: "once" } }, "2026-03-07T12:00:00Z", 1)).toEqual(
      sequence(base, "2026-03-07T12:00:00Z", 1),
    );
  });

  it("resumes at both occurrences of a repeated time with repeat: twice (New York, 01:30)", () => {
    const params = { time: "01:30", timezone: "America/New_York", dst: { repeat: "twice" as const } };
    expect(sequence(params, "2026-10-31T12:00:00Z", 3)).toEqual([
      "2026-11-01T05:30:00.000Z", // 01:30 EDT
      "2026-11-01T06:30:00.000Z", // 01:30 EST
      "2026-11-02T06:30:00.000Z",
    ]);
    // A wait that starts between the two resumes at the second.
    expect(nextWallClock(params, at("2026-11-01T06:00:00Z")).toISOString()).toBe("2026-11-01T06:30:00.000Z");
  });

  it("refuses a rule it does not know, in the step's words", () => {
    const parsed = waitUntil.params.safeParse({ time: "02:30", timezone: "UTC", dst: { gap: "later" } });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe("must be gap_end, shift or skip");
  });
});
