import { describe, expect, it } from "vitest";
import { crontabFor } from "./jobs";

describe("crontabFor", () => {
  it("runs the schedules' heartbeat every minute unless schedules are switched off", () => {
    expect(crontabFor({})).toContain("* * * * * schedule_tick");
    const off = crontabFor({ TILLFLOW_SCHEDULES: "off" });
    expect(off).not.toContain("schedule_tick");
    expect(off).toContain("automation_reap");
  });
});
