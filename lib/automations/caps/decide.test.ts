import { describe, expect, it } from "vitest";
import type { AutomationCaps } from "@/lib/db/schema";
import { decideCaps, recordKey, type CapUsage } from "./decide";

const A = "automation-a";
const B = "automation-b";
const order = (id: string, automationId = A) => ({ automationId, domain: "order", entityId: id });
const none = (): CapUsage => ({ lastHour: new Map(), perRecord: new Map() });
const capsOf = (caps: Record<string, AutomationCaps>) => (id: string) => caps[id] ?? null;

describe("decideCaps", () => {
  it("starts every run of an automation without caps", () => {
    const { heldReasons, stormed } = decideCaps([order("1"), order("2")], capsOf({}), none());
    expect(heldReasons).toEqual([null, null]);
    expect(stormed).toEqual([]);
  });

  it("holds the runs past the hourly cap, counting what already started this hour", () => {
    const usage = none();
    usage.lastHour.set(A, 3);
    const { heldReasons, stormed } = decideCaps(
      [order("1"), order("2"), order("3"), order("4", B)],
      capsOf({ [A]: { maxRunsPerHour: 4 } }),
      usage,
    );
    expect(heldReasons[0]).toBeNull();
    expect(heldReasons[1]).toMatch(/already started 4 runs in the last hour/);
    expect(heldReasons[2]).toMatch(/already started 4 runs in the last hour/);
    expect(heldReasons[3]).toBeNull();
    expect(stormed).toEqual([A]);
  });

  it("holds the second run for the same record within the window, not another record's", () => {
    const usage = none();
    usage.perRecord.set(recordKey(A, "order", "7"), 1);
    const { heldReasons, stormed } = decideCaps(
      [order("7"), order("8"), order("8")],
      capsOf({ [A]: { maxPerRecord: { count: 1, hours: 16 } } }),
      usage,
    );
    expect(heldReasons[0]).toBe(
      "Held: this automation already ran once for this record in the last 16 hours, its cap.",
    );
    expect(heldReasons[1]).toBeNull();
    expect(heldReasons[2]).toMatch(/once for this record/);
    expect(stormed).toEqual([]);
  });

  it("does not count a run held for its record toward the hourly cap", () => {
    const { heldReasons } = decideCaps(
      [order("1"), order("1"), order("2")],
      capsOf({ [A]: { maxRunsPerHour: 2, maxPerRecord: { count: 1, hours: 1 } } }),
      none(),
    );
    expect(heldReasons.map((r) => r !== null)).toEqual([false, true, false]);
  });

  it("never holds a run with no record by the per-record cap", () => {
    const run = { automationId: A, domain: "webhook", entityId: null };
    const { heldReasons } = decideCaps(
      [run, run],
      capsOf({ [A]: { maxPerRecord: { count: 1, hours: 1 } } }),
      none(),
    );
    expect(heldReasons).toEqual([null, null]);
  });
});
