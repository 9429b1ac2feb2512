import { describe, expect, it } from "vitest";
import { localTimeZone } from "../../../time/zones";
import { waitUntil } from "./wait-until";

const issues = (params: unknown) => {
  const result = waitUntil.params.safeParse(params);
  return result.success
    ? []
    : result.error.issues.map((i) => [i.path.join("."), i.message].filter(Boolean).join(" "));
};

describe("auto.control.wait_until", () => {
  it("is a wait with one exit and no domain", () => {
    expect(waitUntil).toMatchObject({
      type: "auto.control.wait_until",
      category: "wait",
      label: "Wait until",
      handles: { in: true, out: ["out"] },
    });
    expect(waitUntil).not.toHaveProperty("entityDomain");
  });

  it("defaults to 9:00 the next working day in the editor's time zone", () => {
    const defaults = waitUntil.defaultParams();
    expect(defaults).toEqual({ time: "09:00", timezone: localTimeZone(), weekdays: [1, 2, 3, 4, 5] });
    expect(waitUntil.params.safeParse(defaults).success).toBe(true);
  });

  it("summarises the time as people say it, the days, and the zone", () => {
    const summary = (params: Parameters<typeof waitUntil.summarise>[0]) => waitUntil.summarise(params);
    expect(summary({ time: "09:00", timezone: "Europe/Paris", weekdays: [1, 2, 3, 4, 5] })).toBe(
      "Wait until 9:00 the next working day (Europe/Paris)",
    );
    expect(summary({ time: "18:30", timezone: "UTC" })).toBe("Wait until 18:30 (UTC)");
    expect(summary({ time: "09:00", timezone: "Europe/Paris", weekdays: [1, 3] })).toBe(
      "Wait until 9:00 on Mon, Wed (Europe/Paris)",
    );
    // Days read in week order, however they were picked.
    expect(summary({ time: "09:00", timezone: "Europe/Paris", weekdays: [7, 3, 1] })).toBe(
      "Wait until 9:00 on Mon, Wed, Sun (Europe/Paris)",
    );
    expect(summary({ time: "10:00", timezone: "UTC", weekdays: [6, 7] })).toBe(
      "Wait until 10:00 on Sat, Sun (UTC)",
    );
    // Every day is the same as any day.
    expect(summary({ time: "00:15", timezone: "UTC", weekdays: [1, 2, 3, 4, 5, 6, 7] })).toBe(
      "Wait until 0:15 (UTC)",
    );
  });

  it("checks the time, the zone and the weekdays", () => {
    const ok = { time: "09:00", timezone: "Europe/Paris" };
    expect(issues(ok)).toEqual([]);
    expect(issues({ ...ok, time: "00:00" })).toEqual([]);
    expect(issues({ ...ok, time: "23:59" })).toEqual([]);
    expect(issues({ ...ok, weekdays: [1, 7] })).toEqual([]);
    const badTime = "time must be a time of day such as 09:00 or 18:30 (24-hour)";
    expect(issues({ ...ok, time: "24:00" })).toEqual([badTime]);
    expect(issues({ ...ok, time: "9:00" })).toEqual([badTime]);
    expect(issues({ ...ok, time: "09:60" })).toEqual([badTime]);
    expect(issues({ ...ok, time: "9am" })).toEqual([badTime]);
    expect(issues({ ...ok, timezone: "Mars/Olympus" })).toEqual([
      "timezone must be a time zone such as Europe/Paris or UTC",
    ]);
    expect(issues({ ...ok, weekdays: [] })).toEqual([
      "weekdays must name at least one day; leave it out for any day",
    ]);
    expect(issues({ ...ok, weekdays: [1, 1] })).toEqual(["weekdays names a day twice"]);
    expect(issues({ ...ok, weekdays: [0] })).toEqual(["weekdays.0 must be at least 1"]);
    expect(issues({ ...ok, weekdays: [8] })).toEqual(["weekdays.0 must be at most 7"]);
    expect(issues({ ...ok, weekdays: "Mon" })).toEqual(["weekdays must be a list of weekdays"]);
    expect(issues({ timezone: "UTC" })).toEqual(["time is required"]);
  });
});
