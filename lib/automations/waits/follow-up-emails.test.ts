import { describe, expect, it } from "vitest";
import { followUpEmail, type FollowUpFacts } from "./follow-up-emails";

const facts: FollowUpFacts = {
  kind: "remind",
  automationName: "Hold <big> orders",
  title: "Review order #1001",
  about: "order #1001",
  askedAt: new Date("2026-12-04T08:00:00.000Z"),
  timesOutAt: new Date("2026-12-07T08:00:00.000Z"),
  remindedAt: null,
  timeZone: "Europe/Paris",
  link: "https://shop.example/approvals?wait=w1",
};

describe("an approval's follow-up emails", () => {
  it("remind the approvers what is asked, since when, about what and until when, with the link", () => {
    const email = followUpEmail(facts);
    expect(email.subject).toBe("Reminder: approval needed: Review order #1001");
    expect(email.html).toBe(
      [
        "<p>'Hold &lt;big&gt; orders' is still waiting for your decision: <strong>Review order #1001</strong>. It was asked on Fri, 4 Dec 2026, 09:00 CET.</p>",
        "<p>About order #1001.</p>",
        "<p>It times out on Mon, 7 Dec 2026, 09:00 CET and then follows 'Timed out'.</p>",
        '<p><a href="https://shop.example/approvals?wait=w1">Approve or reject it</a></p>',
      ].join("\n"),
    );
  });

  it("tell the admins nobody has decided, and when the approvers were reminded", () => {
    const email = followUpEmail({
      ...facts,
      kind: "escalate",
      about: null,
      remindedAt: new Date("2026-12-05T08:00:00.000Z"),
    });
    expect(email.subject).toBe("Nobody has decided: Review order #1001");
    expect(email.html).toContain(
      "Nobody has approved or rejected <strong>Review order #1001</strong> in 'Hold &lt;big&gt; orders' since it was asked on Fri, 4 Dec 2026, 09:00 CET. The approvers were reminded on Sat, 5 Dec 2026, 09:00 CET.",
    );
    expect(email.html).not.toContain("About");
    expect(followUpEmail({ ...facts, kind: "escalate" }).html).not.toContain("reminded");
  });
});
