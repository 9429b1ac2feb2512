import { describe, expect, it } from "vitest";
import { timesOut } from "@/lib/automations/engine/notify-approvers";
import { describeAction, eventWaitDetail, waitDetail } from "./describe";
import { partOfRun } from "./legs";

const ISO = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const started = new Date("2026-12-01T18:13:12.126Z");
const resumeAt = new Date("2026-12-03T18:13:12.126Z");

describe("the dry run's times are in the shop's zone, as words", () => {
  it.each([
    ["Europe/Paris", "Would wait until Thu, 3 Dec 2026, 19:13 CET, in 2 days."],
    ["UTC", "Would wait until Thu, 3 Dec 2026, 18:13 UTC, in 2 days."],
    ["America/New_York", "Would wait until Thu, 3 Dec 2026, 13:13 GMT-5, in 2 days."],
  ])("a wait in %s", (zone, sentence) => {
    expect(waitDetail({ ok: true, kind: "delay", resumeAt, output: {} }, started, zone)).toBe(sentence);
  });

  it("an approval says it would time out and follow 'Timed out'", () => {
    const output = { title: "Refund #1022?", timeoutHours: 48 };
    expect(waitDetail({ ok: true, kind: "approval", resumeAt, output }, started, "UTC")).toBe(
      "Would wait for a decision ('Refund #1022?'), timing out after 48 h, then follow 'Timed out'.",
    );
  });

  it("a wait for an event says for which, how long at most, and that it would follow 'Timed out'", () => {
    const node = {
      type: "auto.control.wait_for_event",
      params: { event: "order.fulfilled", match: { kind: "same_record" }, timeoutHours: 72 },
    };
    expect(eventWaitDetail(node, resumeAt, "Europe/Paris")).toBe(
      "Would wait up to 3 days for 'Order fulfilled' about the same record, timing out Thu, 3 Dec 2026, 19:13 CET, then follow 'Timed out'.",
    );
    expect(eventWaitDetail({ type: "auto.control.wait", params: {} }, resumeAt, "UTC")).toBeNull();
  });

  it.each([
    [
      "auto.action.create_task",
      { title: "Call Ada", dueAt: resumeAt.toISOString() },
      "due Thu, 3 Dec 2026, 19:13 CET",
    ],
    ["auto.action.later", { step: "check-in", due: resumeAt.toISOString() }, "at Thu, 3 Dec 2026, 19:13 CET"],
  ])("%s names its time in words", (type, request, words) => {
    const [line] = describeAction(type, request, "order #1022", null, "Europe/Paris");
    expect(line).toContain(words);
    expect(line).not.toMatch(ISO);
  });

  it.each([
    [2, "the second part of the run"],
    [3, "the third part of the run"],
    [12, "part 12 of the run"],
  ])("leg %i reads %s", (leg, words) => expect(partOfRun(leg)).toBe(words));
});

describe("the approval email's time limit", () => {
  it.each([
    ["2026-12-03T18:13:12.126Z", "Europe/Paris", "on Thu, 3 Dec 2026, 19:13 CET"],
    ["2026-12-03T18:13:12.126Z", "UTC", "on Thu, 3 Dec 2026, 18:13 UTC"],
    [undefined, "UTC", "when its time limit passes"],
    ["not a time", "UTC", "when its time limit passes"],
  ])("%s in %s reads %s", (at, zone, words) => expect(timesOut(at, zone)).toBe(words));
});
