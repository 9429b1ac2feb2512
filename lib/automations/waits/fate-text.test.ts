import { describe, expect, test } from "vitest";
import { WAKE_REASONS } from "@/lib/automations/engine/wake";
import { fateOf, resumeNowWarning } from "./fate-text";

// The engine's decision (decideWake) told in the future tense; the database side is in
// tests/waits/fate.test.ts.
describe("the sentences", () => {
  const at = new Date("2026-12-02T14:00:00Z");
  const now = new Date("2026-11-30T14:00:00Z");
  const wait = { automationVersion: 1, resumeAt: at };
  const paused = { status: "paused" as const, version: 1, inFlightPolicy: "cancel" as const };

  test("paused: turn it back on before the due time, in the shop's time zone", () => {
    const fate = fateOf({ go: false, reason: WAKE_REASONS.paused }, paused, wait, {
      timeZone: "Europe/Paris",
      now,
    });
    expect(fate).toEqual({
      continues: false,
      reason:
        "Will be cancelled when it wakes: the automation is paused — turn it back on before 2 Dec 15:00 to keep it.",
    });
    if (!fate.continues)
      expect(resumeNowWarning(fate)).toBe(
        "This run will be cancelled, not resumed: the automation is paused.",
      );
  });

  test("paused, waiting for an event: its event may come sooner than its time limit", () => {
    const fate = fateOf(
      { go: false, reason: WAKE_REASONS.paused },
      paused,
      { ...wait, kind: "event" },
      {
        timeZone: "Europe/Paris",
        now,
      },
    );
    expect(fate).toEqual({
      continues: false,
      reason:
        "Will be cancelled when it wakes: the automation is paused — turn it back on before its event comes (at the latest 2 Dec 15:00, when it times out) to keep it.",
    });
    if (!fate.continues)
      expect(resumeNowWarning(fate)).toBe(
        "This run will be cancelled, not resumed: the automation is paused.",
      );
  });

  test("paused and already due: no deadline to meet", () => {
    expect(
      fateOf({ go: false, reason: WAKE_REASONS.paused }, paused, wait, {
        timeZone: "UTC",
        now: new Date(at.getTime() + 1),
      }),
    ).toEqual({ continues: false, reason: "Will be cancelled when it wakes: the automation is paused." });
  });

  test("edited with policy cancel names the version and the policy; the warning follows it", () => {
    const fate = fateOf(
      { go: false, reason: WAKE_REASONS.edited },
      { status: "active", version: 3, inFlightPolicy: "cancel" },
      wait,
      { timeZone: "UTC", now },
    );
    expect(fate).toEqual({
      continues: false,
      reason:
        "Will be cancelled when it wakes: the automation was edited (version 3) and its in-flight policy is 'cancel'.",
    });
    if (!fate.continues)
      expect(resumeNowWarning(fate)).toBe(
        "This run will be cancelled, not resumed: the automation was edited (version 3) and its in-flight policy is 'cancel'.",
      );
  });

  test("archived, and moved to the latest version", () => {
    expect(
      fateOf({ go: false, reason: WAKE_REASONS.archived }, { ...paused, status: "archived" }, wait, {
        timeZone: "UTC",
        now,
      }),
    ).toEqual({ continues: false, reason: "Will be cancelled when it wakes: the automation is archived." });
    const latest = { automationId: "a", version: 2, name: "n", graph: { nodes: [], edges: [] } };
    expect(
      fateOf(
        { go: true, version: latest, note: "Moved to version 2 when it woke." },
        { status: "active", version: 2, inFlightPolicy: "move_to_latest" },
        wait,
        { timeZone: "UTC", now },
      ),
    ).toEqual({ continues: true, note: "Will move to version 2 when it wakes." });
  });
});
