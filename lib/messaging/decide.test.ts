import { expect, test } from "vitest";
import { decideMessage, YIELD_MS, type MessageSituation } from "./decide";

const now = new Date("2026-06-10T12:00:00Z");
const hours = (n: number) => new Date(now.getTime() - n * 3_600_000);
const base: MessageSituation = {
  now,
  settings: { quietHours: { start: "21:00", end: "08:00" }, cap: { count: 1, hours: 16 } },
  zone: "UTC",
  priority: 2,
  expireAfterHours: 48,
  deferredAt: null,
  sends: [],
  others: [],
};

test("a message goes when nothing holds it", () => {
  expect(decideMessage(base)).toEqual({ go: true });
});

test("quiet hours first, in the customer's zone (Tokyo: 21:00)", () => {
  const d = decideMessage({ ...base, zone: "Asia/Tokyo" });
  expect(d).toEqual({ go: false, kind: "quiet", until: new Date("2026-06-10T23:00:00Z") });
});

test("over the cap: deferred until the oldest counted send leaves the window", () => {
  expect(decideMessage({ ...base, sends: [hours(3)] })).toEqual({
    go: false,
    kind: "cap",
    until: new Date(hours(3).getTime() + 16 * 3_600_000),
  });
  const two = { ...base, settings: { ...base.settings, cap: { count: 2, hours: 16 } } };
  expect(decideMessage({ ...two, sends: [hours(1)] })).toEqual({ go: true });
  expect(decideMessage({ ...two, sends: [hours(1), hours(5)] })).toMatchObject({
    kind: "cap",
    until: new Date(hours(5).getTime() + 16 * 3_600_000),
  });
  expect(decideMessage({ ...base, settings: { ...base.settings, cap: null }, sends: [hours(1)] })).toEqual({
    go: true,
  });
});

test("a due deferred message of higher priority, or of equal priority deferred earlier, goes first", () => {
  const high = { priority: 3, deferredAt: hours(2), dueAt: hours(0) };
  expect(decideMessage({ ...base, others: [high] })).toEqual({
    go: false,
    kind: "yield",
    until: new Date(now.getTime() + YIELD_MS),
  });
  const older = { priority: 2, deferredAt: hours(5), dueAt: hours(0) };
  expect(decideMessage({ ...base, deferredAt: hours(3), others: [older] })).toMatchObject({ kind: "yield" });
  expect(decideMessage({ ...base, deferredAt: hours(6), others: [older] })).toEqual({ go: true });
  // Not due yet: it does not hold this one back.
  expect(decideMessage({ ...base, others: [{ ...high, dueAt: new Date(now.getTime() + 60_000) }] })).toEqual({
    go: true,
  });
  expect(decideMessage({ ...base, siblingAbove: true })).toMatchObject({ kind: "yield" });
});

test("deferred past the automation's expiry: expired, whatever else holds", () => {
  expect(decideMessage({ ...base, deferredAt: hours(49), sends: [hours(1)] })).toEqual({
    go: false,
    expired: true,
  });
  expect(decideMessage({ ...base, deferredAt: hours(47) })).toEqual({ go: true });
});
