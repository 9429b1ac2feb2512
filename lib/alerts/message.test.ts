import { describe, expect, test } from "vitest";
import { alertMessage, dayInZone, runsUrl } from "./message";
import { ruleSentence } from "./kinds";

const at = new Date("2026-12-05T23:30:00Z");

describe("alert sentences", () => {
  test("each kind names the automation and says what happened in one sentence", () => {
    expect(
      alertMessage("Thank payers", { kind: "failed_runs", count: 1, since: at, first: true }, "UTC"),
    ).toBe("'Thank payers' had a run that failed or partly failed.");
    expect(
      alertMessage(
        "Thank payers",
        { kind: "failed_runs", count: 4, since: at, first: false },
        "Europe/Paris",
      ),
    ).toBe("'Thank payers' had 4 runs that failed or partly failed since Sun, 6 Dec 2026, 00:30 CET.");
    // The latest failed run's record and error, when the finder knows them.
    expect(
      alertMessage(
        "Thank payers",
        {
          kind: "failed_runs",
          count: 1,
          since: at,
          first: true,
          latest: { record: "Order #1022", error: "Slack said 404:\n  channel_not_found" },
        },
        "UTC",
      ),
    ).toBe(
      "'Thank payers' had a run that failed or partly failed on Order #1022. It said: “Slack said 404: channel_not_found”",
    );
    expect(
      alertMessage(
        "Thank payers",
        {
          kind: "failed_runs",
          count: 3,
          since: at,
          first: false,
          latest: { record: null, error: "x".repeat(400) },
        },
        "UTC",
      ),
    ).toBe(
      `'Thank payers' had 3 runs that failed or partly failed since Sat, 5 Dec 2026, 23:30 UTC. The latest said: “${"x".repeat(299)}…”`,
    );
    expect(alertMessage("Welcome", { kind: "silence", perDay: 12.4, lastRunAt: at, hours: 6 }, "UTC")).toBe(
      "'Welcome' usually runs about 12 times a day but has had no run for 6 hours: its last run started Sat, 5 Dec 2026, 23:30 UTC.",
    );
    expect(alertMessage("Tag", { kind: "storm", count: 90, held: 0, max: null, usual: 3 }, "UTC")).toBe(
      "'Tag' started 90 runs in the last hour, over 5 times its usual busiest hour (about 3 runs).",
    );
    expect(alertMessage("Tag", { kind: "overdue_waits", count: 2, minutes: 30 }, "UTC")).toBe(
      "2 runs of 'Tag' are still waiting more than 30 minutes after their waits were due.",
    );
  });

  test("the runs link filters to what the alert is about, by the shop's day", () => {
    expect(dayInZone(at, "Europe/Paris")).toBe("2026-12-06");
    expect(runsUrl("https://shop.example/", "failed_runs", "a1", at, "UTC")).toBe(
      "https://shop.example/automations/a1/runs?status=failed_or_partial&from=2026-12-05",
    );
    expect(runsUrl("https://shop.example", "overdue_waits", "a1", at, "UTC")).toBe(
      "https://shop.example/automations/a1/waiting",
    );
  });

  test("a rule reads as a sentence with its setting or the default", () => {
    expect(ruleSentence("silence", {})).toBe(
      "No run for 6 hours where it usually runs at least 3 times a day",
    );
    expect(ruleSentence("overdue_waits", { minutes: 1 })).toBe(
      "A wait still pending 1 minute after it was due",
    );
  });
});
