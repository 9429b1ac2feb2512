import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { makeLogger } from "@/lib/log/logger";
import { graphileLogger } from "./logger";

/** A graphile-worker logger writing JSON lines into an array, at `level`. */
function capture(level: "debug" | "info" = "info") {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString().split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      callback();
    },
  });
  const pino = makeLogger({ level, format: "json", destination: stream });
  return { logger: graphileLogger(() => pino), lines };
}

describe("workerLogger", () => {
  it("drops graphile-worker's deliberate 'maxPoolSize smaller than concurrency' warning", () => {
    const { logger, lines } = capture();
    // The text graphile-worker logs when the pool is smaller than concurrency (worker/run.ts does so on purpose).
    logger.warn(
      "WARNING: having maxPoolSize (16) smaller than concurrency (10000) may lead to non-optimal performance.",
      { max: 16, concurrency: 10_000 },
    );
    expect(lines).toEqual([]);
  });

  it("drops the deliberate 'job batch size smaller than concurrency' warning", () => {
    const { logger, lines } = capture();
    logger.warn(
      "Your job batch size (1000) is smaller than your concurrency setting (10000); this may result in drastically lower performance if your jobs can complete quickly.",
    );
    expect(lines).toEqual([]);
  });

  it("keeps other warnings and errors as JSON lines with graphile-worker's scope", () => {
    const { logger, lines } = capture();
    logger.warn("Failed to release job");
    logger.scope({ jobId: "42", taskIdentifier: "automation_execute" }).error("Worker crashed");
    expect(lines).toMatchObject([
      { level: "warn", msg: "Failed to release job", component: "graphile-worker" },
      { level: "error", msg: "Worker crashed", jobId: "42", task: "automation_execute" },
    ]);
  });

  it("logs graphile-worker's per-job info lines at debug only", () => {
    const quiet = capture("info");
    quiet.logger.info("Completed task 1 (automation_execute) with success");
    expect(quiet.lines).toEqual([]);
    const chatty = capture("debug");
    chatty.logger.info("Completed task 1 (automation_execute) with success");
    expect(chatty.lines).toMatchObject([
      { level: "debug", msg: "Completed task 1 (automation_execute) with success" },
    ]);
  });
});
