import { afterEach, describe, expect, it, vi } from "vitest";
import { workerLogger } from "./logger";

describe("workerLogger", () => {
  afterEach(() => vi.restoreAllMocks());

  it("drops graphile-worker's deliberate 'maxPoolSize smaller than concurrency' warning", () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    // The text graphile-worker logs when the pool is smaller than concurrency (worker/run.ts does so on purpose).
    workerLogger.warn(
      "WARNING: having maxPoolSize (16) smaller than concurrency (10000) may lead to non-optimal performance.",
      { max: 16, concurrency: 10_000 },
    );
    expect(log).not.toHaveBeenCalled();
  });

  it("drops the deliberate 'job batch size smaller than concurrency' warning", () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    workerLogger.warn(
      "Your job batch size (1000) is smaller than your concurrency setting (10000); this may result in drastically lower performance if your jobs can complete quickly.",
    );
    expect(log).not.toHaveBeenCalled();
  });

  it("keeps other warnings and errors", () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    workerLogger.warn("Failed to release job");
    workerLogger.error("Worker crashed");
    expect(log).toHaveBeenCalledWith("[graphile-worker] Failed to release job");
    expect(error).toHaveBeenCalledWith("[graphile-worker] Worker crashed");
  });
});
