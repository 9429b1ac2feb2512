import { describe, expect, test } from "vitest";
import { quietUntil, wallClock } from "./quiet";
import { DEFAULT_QUIET_HOURS } from "./settings";

/*
 * Quiet hours (21:00–08:00 unless said) read on each zone's own wall clock, in five zones, across
 * a spring-forward and a fall-back day: the end is 08:00 on the clock as it reads that morning.
 */

const at = (iso: string) => new Date(iso);
const until = (zone: string, iso: string, quiet = DEFAULT_QUIET_HOURS) =>
  quietUntil(zone, at(iso), quiet)?.toISOString() ?? null;

describe("quietUntil", () => {
  test("Berlin, a summer night: 22:30 CEST waits until 08:00 CEST", () => {
    expect(until("Europe/Berlin", "2026-06-10T20:30:00Z")).toBe("2026-06-11T06:00:00.000Z");
  });

  test("Berlin, the fall-back night (25 October 2026): 00:00 CEST waits until 08:00 CET, an hour later in UTC", () => {
    expect(until("Europe/Berlin", "2026-10-24T22:00:00Z")).toBe("2026-10-25T07:00:00.000Z");
  });

  test("New York, the spring-forward night (8 March 2026): 01:00 EST waits until 08:00 EDT", () => {
    expect(until("America/New_York", "2026-03-08T06:00:00Z")).toBe("2026-03-08T12:00:00.000Z");
  });

  test("an end time the spring gap skips is the gap's end (02:30 → 03:00 EDT)", () => {
    expect(until("America/New_York", "2026-03-08T03:00:00Z", { start: "21:00", end: "02:30" })).toBe(
      "2026-03-08T07:00:00.000Z",
    );
  });

  test("Kolkata (+05:30): 21:30 waits until 08:00 the next morning", () => {
    expect(until("Asia/Kolkata", "2026-06-10T16:00:00Z")).toBe("2026-06-11T02:30:00.000Z");
  });

  test("Sydney, the night its summer time ends (5 April 2026): 23:00 AEDT waits until 08:00 AEST", () => {
    expect(until("Australia/Sydney", "2026-04-04T12:00:00Z")).toBe("2026-04-04T22:00:00.000Z");
  });

  test("outside quiet hours, and with them off, nothing waits", () => {
    expect(until("Australia/Sydney", "2026-06-10T00:00:00Z")).toBeNull();
    expect(until("America/Los_Angeles", "2026-06-10T20:00:00Z")).toBeNull();
    expect(quietUntil("Europe/Berlin", at("2026-06-10T20:30:00Z"), null)).toBeNull();
  });

  test("the boundaries: 21:00 is quiet, 08:00 is not", () => {
    expect(until("UTC", "2026-06-10T21:00:00Z")).toBe("2026-06-11T08:00:00.000Z");
    expect(until("UTC", "2026-06-10T07:59:00Z")).toBe("2026-06-10T08:00:00.000Z");
    expect(until("UTC", "2026-06-10T08:00:00Z")).toBeNull();
    expect(until("UTC", "2026-06-10T20:59:00Z")).toBeNull();
  });

  test("daytime quiet hours (12:00–14:00) hold only between them", () => {
    const lunch = { start: "12:00", end: "14:00" };
    expect(until("UTC", "2026-06-10T12:30:00Z", lunch)).toBe("2026-06-10T14:00:00.000Z");
    expect(until("UTC", "2026-06-10T14:30:00Z", lunch)).toBeNull();
  });
});

test("wallClock names the day when it is not today's", () => {
  const now = at("2026-06-10T20:30:00Z");
  expect(wallClock("Europe/Berlin", at("2026-06-11T06:00:00Z"), now)).toBe("08:00 Thu 11 Jun");
  expect(wallClock("America/New_York", at("2026-06-11T00:00:00Z"), now)).toBe("20:00");
});
