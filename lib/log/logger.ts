import { AsyncLocalStorage } from "node:async_hooks";
import pino, { type DestinationStream, type Logger } from "pino";
import pretty from "pino-pretty";
import { config } from "@/lib/config/config";

export type { Logger } from "pino";

/**
 * Terminology
 * - line: one log record; JSON (one object a line) or, for people, pino-pretty's text.
 * - context: the fields a line carries because of where it was logged (`tenantId`, `runId`,
 *   `leg`, `jobId`, `requestId`): `withLogContext` sets them for everything a callback calls.
 * - redaction: fields that may hold a secret are written as "[redacted]" (`REDACT`).
 *
 * Fields, levels and formats for operators: docs/logging.md.
 */

/**
 * Paths pino writes as "[redacted]": authorization and cookie headers, passwords, tokens, keys,
 * secrets and credential values, at the top level and one object down (pino's wildcards match
 * one level; deeper objects are not logged whole).
 */
export const REDACT = [
  "authorization",
  "cookie",
  "password",
  "token",
  "apiKey",
  "secret",
  "credentialValue",
  "headers.authorization",
  "headers.Authorization",
  "headers.cookie",
  "headers['x-api-key']",
  "*.authorization",
  "*.cookie",
  "*.password",
  "*.token",
  "*.apiKey",
  "*.secret",
  "*.credentialValue",
  "*.headers.authorization",
  "*.headers.Authorization",
  "*.headers.cookie",
  "credential.value",
  "*.credential.value",
];

export interface LoggerOptions {
  level: pino.LevelWithSilent;
  format: "json" | "pretty";
  /** A file descriptor (1 stdout, 2 stderr) or a stream (tests). */
  destination: number | DestinationStream;
  /**
   * JSON to a file descriptor: each line written at once (`true`: a short-lived command's), or
   * gathered while a write is under way and written together (a server's; flushed at exit).
   */
  sync?: boolean;
}

/** A logger with Tillflow's fields, redaction and format. */
export function makeLogger(options: LoggerOptions): Logger {
  const base: pino.LoggerOptions = {
    level: options.level,
    base: { pid: process.pid },
    redact: { paths: REDACT, censor: "[redacted]" },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  };
  const fd = typeof options.destination === "number" ? options.destination : null;
  if (options.format === "pretty") {
    // Synchronous, in this thread: a transport's worker thread cannot be bundled by Next.js and
    // loses the last lines of a process that exits at once (a refused start).
    const colorize = fd !== null && Boolean((fd === 2 ? process.stderr : process.stdout).isTTY);
    const stream =
      fd === null
        ? pretty({ colorize: false, sync: true, destination: options.destination })
        : pretty({ colorize, sync: true, destination: fd, ignore: "pid,hostname" });
    return pino(base, stream);
  }
  return pino(
    base,
    fd === null
      ? (options.destination as DestinationStream)
      : pino.destination({ fd, sync: options.sync ?? true }),
  );
}

const holder = globalThis as unknown as { __tillflowLogger?: Logger; __tillflowLogFd?: number };
const context = new AsyncLocalStorage<Logger>();

/**
 * Where this process's lines go: stdout (1, the default) or stderr (2: the CLI, whose stdout is
 * what a command prints, such as a new API key). Call before the first line.
 */
export function logTo(fd: 1 | 2): void {
  holder.__tillflowLogFd = fd;
  holder.__tillflowLogger = undefined;
}

/** The process's logger, made on first use from `LOG_LEVEL` and `LOG_FORMAT`. */
export function rootLogger(): Logger {
  if (holder.__tillflowLogger) return holder.__tillflowLogger;
  const settings = config();
  const fd = holder.__tillflowLogFd ?? 1;
  const tty = Boolean((fd === 2 ? process.stderr : process.stdout).isTTY);
  holder.__tillflowLogger = makeLogger({
    level: settings.LOG_LEVEL ?? "info",
    format: settings.LOG_FORMAT ?? (tty ? "pretty" : "json"),
    destination: fd,
    // The CLI logs to stderr and exits when done; the web server's and worker's lines, a line per
    // request or leg under load, are written in batches rather than a system call each.
    sync: fd === 2,
  });
  return holder.__tillflowLogger;
}

/** The logger for here: the root one, with the fields of the `withLogContext` it runs in. */
export function log(): Logger {
  return context.getStore() ?? rootLogger();
}

/** Runs `fn` with `fields` on every line logged inside it (and what it awaits). */
export function withLogContext<T>(fields: Record<string, unknown>, fn: () => T): T {
  return context.run(log().child(fields), fn);
}
