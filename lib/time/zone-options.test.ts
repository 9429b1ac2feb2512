import { describe, expect, it } from "vitest";
import { searchZones, zoneCity, zoneLabel, zoneOptions, zonePlace } from "./zone-options";

const WINTER = new Date("2026-01-15T12:00:00Z");
const SUMMER = new Date("2026-07-15T12:00:00Z");

describe("time zones by city and offset", () => {
  it("labels a zone by its city, region and today's offset", () => {
    expect(zoneLabel("Europe/Paris", WINTER)).toBe("Paris (Europe) · UTC+01:00");
    expect(zoneLabel("Europe/Paris", SUMMER)).toBe("Paris (Europe) · UTC+02:00");
    expect(zoneLabel("America/New_York", WINTER)).toBe("New York (America) · UTC−05:00");
    expect(zoneLabel("Asia/Kolkata", WINTER)).toBe("Kolkata (Asia) · UTC+05:30");
    expect(zoneLabel("UTC", WINTER)).toBe("UTC · UTC+00:00");
    expect(zonePlace("America/Argentina/Buenos_Aires")).toBe("Buenos Aires (America, Argentina)");
    expect(zoneCity("America/Argentina/Buenos_Aires")).toBe("Buenos Aires");
    expect(zoneCity("UTC")).toBe("UTC");
  });

  it("lists every zone the runtime knows with UTC, west to east", () => {
    const options = zoneOptions(WINTER);
    expect(options.map((o) => o.zone)).toEqual(expect.arrayContaining(["UTC", "Europe/Paris", "Asia/Tokyo"]));
    const offsets = options.map((o) => o.offsetMinutes);
    expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
  });

  it("finds a zone by city words, region or offset", () => {
    const options = zoneOptions(WINTER);
    expect(searchZones(options, "new york", "").map((o) => o.zone)).toEqual(["America/New_York"]);
    expect(searchZones(options, "PARIS", "").map((o) => o.zone)).toEqual(["Europe/Paris"]);
    expect(searchZones(options, "utc+09:00", "").map((o) => o.zone)).toContain("Asia/Tokyo");
  });

  it("keeps the saved zone first even when the search leaves it out", () => {
    const options = zoneOptions(WINTER);
    const found = searchZones(options, "tokyo", "Europe/Paris", WINTER);
    expect(found[0]?.zone).toBe("Europe/Paris");
    expect(found.map((o) => o.zone)).toContain("Asia/Tokyo");
    expect(searchZones(options, "", "Mars/Olympus", WINTER)[0]?.label).toBe("Mars/Olympus (not a time zone)");
  });
});
