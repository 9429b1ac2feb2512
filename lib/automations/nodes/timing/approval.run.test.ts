import { describe, expect, test } from "vitest";
import { approvalFromStep, approvalInfo, approvalState } from "./approval.run";

/*
 *   [Order paid] → [Approval "Review order #1001", 72 h] —approved→ …  —rejected→ …  —timed_out→ …
 *
 * The engine pauses there with the step output below; a decision adds to the wait and the step.
 */
const asked = {
  resumeAt: "2026-12-04T09:00:00.000Z",
  title: "Review order #1001",
  approverRole: "editor",
  timeoutHours: 72,
};

const pendingWait = {
  status: "pending",
  resumeAt: new Date("2026-12-04T09:00:00.000Z"),
  resolvedAt: null,
  decision: null,
  decidedBy: null,
  decidedAt: null,
  note: null,
};

describe("approval info", () => {
  test("a pending approval says what it asks, of whom, and when it times out", () => {
    expect(approvalInfo(pendingWait, asked)).toEqual({
      title: "Review order #1001",
      approverRole: "editor",
      approvers: [{ role: "editor", required: 1 }],
      asks: "1 editor or admin",
      reject: "any",
      votes: [],
      needed: null,
      timeoutHours: 72,
      state: "pending",
      timesOutAt: "2026-12-04T09:00:00.000Z",
      decidedBy: null,
      decidedAt: null,
      note: null,
      resolvedAt: null,
      remindedAt: null,
      escalatedAt: null,
      reason: null,
    });
  });

  test("a quorum says its votes and who is still needed", () => {
    const finance = "00000000-0000-4000-8000-00000000000f";
    const quorum = {
      ...asked,
      approvers: [
        { role: "admin", required: 2 },
        { team: finance, required: 1 },
      ],
    };
    const votes = [
      {
        voter: "user:a",
        voterLabel: "ana@shop.test",
        decision: "approved" as const,
        rules: [0],
        note: "Fine",
        createdAt: new Date("2026-12-01T10:00:00.000Z"),
      },
    ];
    expect(
      approvalInfo(pendingWait, quorum, { votes, teamNames: new Map([[finance, "Finance"]]) }),
    ).toMatchObject({
      asks: "2 admins and 1 from Finance",
      votes: [{ by: "ana@shop.test", decision: "approved", at: "2026-12-01T10:00:00.000Z", note: "Fine" }],
      needed: "1 of 2 admins, and 1 from Finance still needed",
    });
  });

  test("the reminder to the approvers and the word to the admins are read from the wait", () => {
    const followedUp = {
      ...pendingWait,
      remindedAt: new Date("2026-12-02T10:00:00.000Z"),
      escalatedAt: "2026-12-03T10:00:00.000Z",
    };
    expect(approvalInfo(followedUp, asked)).toMatchObject({
      state: "pending",
      remindedAt: "2026-12-02T10:00:00.000Z",
      escalatedAt: "2026-12-03T10:00:00.000Z",
    });
  });

  test("a decision is read from the wait, and the timeout stays the one asked (not the moved resume time)", () => {
    const decided = {
      ...pendingWait,
      resumeAt: new Date("2026-12-01T10:00:00.000Z"),
      decision: "approved",
      decidedBy: "ana@shop.test",
      decidedAt: new Date("2026-12-01T10:00:00.000Z"),
      note: "Customer known",
    };
    expect(approvalInfo(decided, asked)).toMatchObject({
      state: "approved",
      timesOutAt: "2026-12-04T09:00:00.000Z",
      decidedBy: "ana@shop.test",
      decidedAt: "2026-12-01T10:00:00.000Z",
      note: "Customer known",
    });
  });

  test("a wait resumed without a decision timed out; cancelled and failed ones were cancelled", () => {
    expect(approvalState({ status: "resumed", decision: null })).toBe("timed_out");
    expect(approvalState({ status: "cancelled", decision: null })).toBe("cancelled");
    expect(approvalState({ status: "failed", decision: null })).toBe("cancelled");
    expect(approvalState({ status: "resumed", decision: "rejected" })).toBe("rejected");
  });

  test("without its step's output it still reads, as 'A decision' asked of editors", () => {
    expect(approvalInfo(pendingWait, null)).toMatchObject({
      title: "A decision",
      approverRole: "editor",
      timeoutHours: null,
      timesOutAt: "2026-12-04T09:00:00.000Z",
    });
  });

  test("from a step alone: waiting is pending, succeeded without a decision timed out when it finished", () => {
    expect(approvalFromStep({ status: "waiting", output: asked, finishedAt: null }).state).toBe("pending");
    expect(
      approvalFromStep({ status: "success", output: asked, finishedAt: "2026-12-04T09:00:01.000Z" }),
    ).toMatchObject({ state: "timed_out", resolvedAt: "2026-12-04T09:00:01.000Z" });
    const decided = {
      ...asked,
      decision: "rejected",
      decidedBy: "ana@shop.test",
      decidedAt: "2026-12-01T10:00:00.000Z",
      note: null,
    };
    expect(approvalFromStep({ status: "success", output: decided, finishedAt: null })).toMatchObject({
      state: "rejected",
      decidedBy: "ana@shop.test",
      decidedAt: "2026-12-01T10:00:00.000Z",
    });
  });
});
