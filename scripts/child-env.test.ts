import { describe, expect, it } from "vitest";
import { childEnv } from "./child-env";

describe("childEnv", () => {
  it("turns Next's telemetry off, keeping the launcher's environment and the extras", () => {
    const env = childEnv({ HOME: "/home/me", NEXT_TELEMETRY_DISABLED: "0" }, { PORT: "3000" });
    expect(env).toEqual({ HOME: "/home/me", PORT: "3000", NEXT_TELEMETRY_DISABLED: "1" });
  });
});
