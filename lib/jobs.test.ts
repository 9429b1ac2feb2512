import { describe, expect, it } from "vitest";
import { crontabFor } from "./jobs";

describe("crontabFor", () => {
  it("runs the schedules' heartbeat every minute unless schedules are switched off", () => {
    expect(crontabFor({ TILLFLOW_SCHEDULES: true })).toContain("* * * * * schedule_tick");
    const off = crontabFor({ TILLFLOW_SCHEDULES: false });
    expect(off).not.toContain("schedule_tick");
    expect(off).toContain("automation_reap");
  });
});
