import { describe, expect, it } from "vitest";
import { cronProblem } from "./cron";
import {
  choiceToCron,
  cronToChoice,
  describeChoice,
  describeCron,
  fallbackChoice,
  HOUR_STEPS,
  parseClock,
  switchKind,
  type ScheduleChoice,
} from "./schedule-sentence";

const FORMS: readonly [ScheduleChoice, string][] = [
  [{ kind: "daily", hour: 9, minute: 0 }, "0 9 * * *"],
  [{ kind: "weekdays", hour: 9, minute: 0 }, "0 9 * * 1-5"],
  [{ kind: "days", days: [1, 3, 5], hour: 18, minute: 30 }, "30 18 * * 1,3,5"],
  [{ kind: "days", days: [6, 7], hour: 10, minute: 15 }, "15 10 * * 6,0"],
  [{ kind: "hours", every: 1, minute: 0 }, "0 * * * *"],
  [{ kind: "hours", every: 6, minute: 30 }, "30 */6 * * *"],
  [{ kind: "monthly", day: 1, hour: 8, minute: 0 }, "0 8 1 * *"],
  [{ kind: "monthly", day: 31, hour: 23, minute: 59 }, "59 23 31 * *"],
];

describe("sentence ⇄ cron", () => {
  it.each(FORMS)("%j is %s, and reads back as itself", (choice, cron) => {
    expect(choiceToCron(choice)).toBe(cron);
    expect(cronProblem(cron)).toBeNull();
    expect(cronToChoice(cron)).toEqual(choice);
  });

  it("every step of Every few hours round-trips", () => {
    for (const every of HOUR_STEPS) {
      const choice: ScheduleChoice = { kind: "hours", every, minute: 5 };
      expect(cronToChoice(choiceToCron(choice))).toEqual(choice);
    }
  });

  it("chosen days are written sorted and once, whatever order they were ticked in", () => {
    expect(choiceToCron({ kind: "days", days: [5, 1, 5, 7], hour: 9, minute: 0 })).toBe("0 9 * * 1,5,0");
  });

  it("reads the same meaning spelt another way", () => {
    expect(cronToChoice("0 9 * * MON-FRI")).toEqual({ kind: "weekdays", hour: 9, minute: 0 });
    expect(cronToChoice("0 9 * * 0-6")).toEqual({ kind: "daily", hour: 9, minute: 0 });
    expect(cronToChoice("0 9 * * 7")).toEqual({ kind: "days", days: [7], hour: 9, minute: 0 });
    expect(cronToChoice("  5 07 * * sat,sun ")).toEqual({ kind: "days", days: [6, 7], hour: 7, minute: 5 });
  });

  it.each([
    "*/15 * * * *", // every 15 minutes
    "0 9,17 * * *", // two times a day
    "0 */5 * * *", // hours that do not divide the day
    "0 9 1 1 *", // a month named
    "0 9 13 * 5", // both day fields
    "0 9 1-7 * *", // a range of days of the month
    "0 25 * * *", // not valid at all
    "0 9 * *", // four fields
    "",
  ])("%s is not a sentence: it stays cron", (cron) => {
    expect(cronToChoice(cron)).toBeNull();
  });
});

describe("in words", () => {
  it("says each sentence the way the form reads", () => {
    expect(describeChoice({ kind: "weekdays", hour: 9, minute: 0 })).toBe(
      "Every weekday (Monday to Friday) at 09:00",
    );
    expect(describeChoice({ kind: "days", days: [5, 1, 3], hour: 18, minute: 30 })).toBe(
      "Every Monday, Wednesday and Friday at 18:30",
    );
    expect(describeChoice({ kind: "hours", every: 1, minute: 0 })).toBe("Every hour, on the hour");
    expect(describeChoice({ kind: "hours", every: 6, minute: 30 })).toBe(
      "Every 6 hours from midnight, at 30 minutes past",
    );
    expect(describeChoice({ kind: "monthly", day: 2, hour: 8, minute: 0 })).toBe(
      "On the 2nd of every month at 08:00",
    );
    expect(describeChoice({ kind: "monthly", day: 31, hour: 8, minute: 0 })).toContain(
      "months without that day are skipped",
    );
  });

  it.each([
    ["0 9 * * 1-5", "Every weekday (Monday to Friday) at 09:00"],
    ["*/15 * * * *", "Every 15 minutes, every day"],
    ["*/15 9-17 * * MON-FRI", "Every 15 minutes, during hours 9 to 17, on Monday to Friday"],
    ["0 9,17 * * *", "At 09:00 and 17:00, every day"],
    ["0 9 13 * 5", "At 09:00, on day 13 of the month or on Friday"],
    ["0 9 1 1,7 *", "At 09:00, on day 1 of the month, in January and July"],
    ["30 2 * JAN-MAR 0", "At 02:30, on Sunday, in January to March"],
    ["0 */5 * * *", "At minute 0, every 5 hours, every day"],
    ["* * * * *", "Every minute, every day"],
  ])("%s reads “%s”", (cron, words) => {
    expect(describeCron(cron)).toBe(words);
  });

  it("never shows a placeholder for an expression it cannot read", () => {
    expect(describeCron("0 9 * *")).toBe("Not a five-field cron expression");
    expect(describeCron("0 9 L * *")).toBe("Cron 0 9 L * *");
  });
});

describe("moving between sentences", () => {
  it("keeps the time of day when the kind changes", () => {
    const weekdays = switchKind({ kind: "daily", hour: 7, minute: 45 }, "weekdays");
    expect(weekdays).toEqual({ kind: "weekdays", hour: 7, minute: 45 });
    expect(switchKind(weekdays, "monthly")).toEqual({ kind: "monthly", day: 1, hour: 7, minute: 45 });
    expect(switchKind(weekdays, "days")).toEqual({
      kind: "days",
      days: [1, 2, 3, 4, 5],
      hour: 7,
      minute: 45,
    });
    expect(switchKind(weekdays, "hours")).toEqual({ kind: "hours", every: 2, minute: 45 });
  });

  it("leaving Advanced for a cron that is not a sentence starts at its time, every day", () => {
    expect(fallbackChoice("30 6 1 1 *")).toEqual({ kind: "daily", hour: 6, minute: 30 });
    expect(fallbackChoice("*/15 * * * *")).toEqual({ kind: "daily", hour: 9, minute: 0 });
  });

  it("reads a time typed as hh:mm", () => {
    expect(parseClock("09:05")).toEqual({ hour: 9, minute: 5 });
    expect(parseClock("24:00")).toBeNull();
    expect(parseClock("")).toBeNull();
  });
});
