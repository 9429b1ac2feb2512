import { describe, expect, it } from "vitest";
import { matchedPerRule, quorumOf, quorumState, stillNeeded, type Quorum } from "./quorum";

const FIN = "00000000-0000-4000-8000-00000000000f";
const names = (id: string) => (id === FIN ? "Finance" : "?");

const quorum = (asked: Record<string, unknown>): Quorum => quorumOf(asked);

describe("a quorum", () => {
  it("reads `approverRole` alone as one person of that role, who may self-approve unless the step forbids it", () => {
    expect(quorum({ approverRole: "admin" })).toEqual({
      rules: [{ role: "admin", required: 1 }],
      reject: "any",
      quorum: false,
      allowSelfApproval: true,
    });
    expect(quorum({ approverRole: "editor", allowSelfApproval: false }).allowSelfApproval).toBe(false);
    // A quorum forbids self-approval unless it says otherwise.
    expect(quorum({ approvers: [{ role: "admin", required: 2 }] }).allowSelfApproval).toBe(false);
  });

  it("counts each person for one rule only (an admin in Finance does not fill both)", () => {
    // Two rules of one each; one person eligible for both, one only for the first.
    expect(matchedPerRule([[0, 1], [0]], [1, 1])).toEqual([1, 1]);
    expect(matchedPerRule([[0, 1]], [1, 1]).reduce((a, b) => a + b)).toBe(1);
    expect(matchedPerRule([[0], [0], [0]], [2])).toEqual([2]);
  });

  it("is approved when every rule is met, and says who is still needed before", () => {
    const q = quorum({
      approvers: [
        { role: "admin", required: 2 },
        { team: FIN, required: 1 },
      ],
    });
    const candidates = [
      { voter: "c", rules: [0] },
      { voter: "f", rules: [1] },
    ];
    const one = quorumState(q, [{ voter: "a", rules: [0], decision: "approved" }], candidates);
    expect(one.outcome).toBe("pending");
    expect(stillNeeded(q.rules, one.missing, names)).toBe("1 of 2 admins, and 1 from Finance still needed");
    const all = quorumState(
      q,
      [
        { voter: "a", rules: [0], decision: "approved" },
        { voter: "c", rules: [0], decision: "approved" },
        { voter: "f", rules: [1], decision: "approved" },
      ],
      [],
    );
    expect(all.outcome).toBe("approved");
    expect(stillNeeded(q.rules, all.missing, names)).toBeNull();
  });

  it("is impossible when the approvers and everyone who may still vote cannot meet it", () => {
    const q = quorum({ approvers: [{ team: FIN, required: 2 }] });
    expect(quorumState(q, [{ voter: "a", rules: [0], decision: "approved" }], []).outcome).toBe("impossible");
    expect(
      quorumState(q, [{ voter: "a", rules: [0], decision: "approved" }], [{ voter: "b", rules: [0] }])
        .outcome,
    ).toBe("pending");
    // A step with `approverRole` alone is never failed early: it waits for its time-out as before.
    expect(quorumState(quorum({ approverRole: "editor" }), [], []).outcome).toBe("pending");
  });

  it("rejects on one rejection under 'any', and on more than half of everyone under 'majority'", () => {
    const any = quorum({ approvers: [{ role: "admin", required: 2 }] });
    const many = [
      { voter: "x", rules: [0] },
      { voter: "y", rules: [0] },
    ];
    expect(quorumState(any, [{ voter: "a", rules: [0], decision: "rejected" }], many).outcome).toBe(
      "rejected",
    );
    const majority = quorum({ approvers: [{ role: "admin", required: 1 }], reject: "majority" });
    expect(quorumState(majority, [{ voter: "a", rules: [0], decision: "rejected" }], many).outcome).toBe(
      "pending",
    );
    expect(
      quorumState(
        majority,
        [
          { voter: "a", rules: [0], decision: "rejected" },
          { voter: "x", rules: [0], decision: "rejected" },
        ],
        [{ voter: "y", rules: [0] }],
      ).outcome,
    ).toBe("rejected");
  });
});
