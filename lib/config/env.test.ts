import { describe, expect, it } from "vitest";
import { ConfigError, ENV_NAMES, parseEnv, VARIABLES } from "./env";

/** The sentences a bad environment is refused with. */
function refused(env: Record<string, string>): string[] {
  try {
    parseEnv(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.sentences;
    throw error;
  }
  throw new Error("The environment was accepted.");
}

describe("parseEnv", () => {
  it("gives every default with an empty environment", () => {
    const config = parseEnv({});
    expect(config).toMatchObject({
      PORT: 3000,
      WORKER_CONCURRENCY: 10_000,
      WORKER_LOCAL_QUEUE: 100,
      DB_APPLICATION_NAME: "tillflow",
      AUTH_RATE_LIMIT: true,
      TILLFLOW_SCHEDULES: true,
      TILLFLOW_MIGRATE: false,
      AI_STRUCTURED_OUTPUTS: true,
      AI_TIMEOUT_MS: 60_000,
      LOG_LEVEL: "info",
    });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.LOG_FORMAT).toBeUndefined();
    expect(config.DB_POOL_MAX).toBeUndefined();
    expect(config.DB_MAX_LIFETIME_SECONDS).toBeUndefined();
  });

  it("parses good values, and an empty one as unset", () => {
    const config = parseEnv({
      PORT: " 8080 ",
      WORKER_CONCURRENCY: "1",
      AUTH_RATE_LIMIT: "OFF",
      TILLFLOW_MIGRATE: "1",
      AI_STRUCTURED_OUTPUTS: "false",
      LOG_FORMAT: "pretty",
      LOG_LEVEL: "debug",
      DATABASE_URL: "postgresql://u:p@db:5432/tillflow",
      BETTER_AUTH_URL: "https://admin.example.com",
      DB_POOL_MAX: "",
      HTTP_ACTION_ALLOW: "127.0.0.1,localhost",
    });
    expect(config).toMatchObject({
      PORT: 8080,
      WORKER_CONCURRENCY: 1,
      AUTH_RATE_LIMIT: false,
      TILLFLOW_MIGRATE: true,
      AI_STRUCTURED_OUTPUTS: false,
      LOG_FORMAT: "pretty",
      LOG_LEVEL: "debug",
      DATABASE_URL: "postgresql://u:p@db:5432/tillflow",
      DB_POOL_MAX: undefined,
      HTTP_ACTION_ALLOW: "127.0.0.1,localhost",
    });
  });

  it.each([
    ["WORKER_CONCURRENCY", "abc", 'WORKER_CONCURRENCY must be a whole number from 1 to 100,000 (got "abc").'],
    ["WORKER_CONCURRENCY", "0", 'WORKER_CONCURRENCY must be a whole number from 1 to 100,000 (got "0").'],
    ["WORKER_CONCURRENCY", "2.5", 'WORKER_CONCURRENCY must be a whole number from 1 to 100,000 (got "2.5").'],
    ["PORT", "70000", 'PORT must be a whole number from 1 to 65,535 (got "70000").'],
    ["LOG_FORMAT", "xml", 'LOG_FORMAT must be "json" or "pretty" (got "xml").'],
    [
      "LOG_LEVEL",
      "loud",
      'LOG_LEVEL must be one of "fatal", "error", "warn", "info", "debug", "trace" or "silent" (got "loud").',
    ],
    [
      "AUTH_RATE_LIMIT",
      "maybe",
      'AUTH_RATE_LIMIT must be on, off, 1, 0, true, false, yes or no (got "maybe").',
    ],
    [
      "BETTER_AUTH_URL",
      "admin.example.com",
      'BETTER_AUTH_URL must be an http:// or https:// URL (got "admin.example.com").',
    ],
    // Secrets are named, never printed.
    ["DATABASE_URL", "mysql://root:hunter2@db/x", "DATABASE_URL must be a postgres:// or postgresql:// URL."],
  ])("refuses %s=%s in one sentence", (name, value, sentence) => {
    expect(refused({ [name]: value })).toEqual([sentence]);
  });

  it("names every bad variable, one sentence each", () => {
    expect(refused({ PORT: "x", LOG_FORMAT: "xml" })).toEqual([
      'PORT must be a whole number from 1 to 65,535 (got "x").',
      'LOG_FORMAT must be "json" or "pretty" (got "xml").',
    ]);
  });

  it("describes every variable", () => {
    for (const name of ENV_NAMES) {
      const { description, accepts, defaultText } = VARIABLES[name].info;
      expect(description.length, name).toBeGreaterThan(10);
      expect(accepts, name).not.toBe("");
      expect(defaultText, name).not.toBe("");
    }
  });
});
