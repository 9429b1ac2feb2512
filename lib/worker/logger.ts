import { Logger as GraphileLogger } from "graphile-worker";
import { log, type Logger } from "@/lib/log/logger";

/**
 * graphile-worker's own lines, through the process's pino logger (lib/log) with its scope's
 * `jobId`, `task` and `workerId`. It logs every job at info level; at a thousand jobs a second that
 * drowns what matters, so its info lines are logged at debug and its debug lines at trace
 * (`LOG_LEVEL=debug` brings them back). Warnings and errors keep their level.
 */
export function graphileLogger(target: () => Logger = log): GraphileLogger {
  return new GraphileLogger((scope) => (level, message, meta) => {
    // Deliberate (worker/run.ts): jobs waiting on a RunBatcher hold no connection, so the pool is far
    // smaller than concurrency, and graphile-worker's "WARNING: having maxPoolSize (16) smaller than
    // concurrency (10000) ..." at every start is noise. Matched by its words, not its prefix.
    if (message.includes("maxPoolSize") && message.includes("smaller than concurrency")) return;
    // Deliberate too: a worker locks at most WORKER_LOCAL_QUEUE jobs at once (a killed worker costs
    // every job it had locked an attempt), so "Your job batch size (1000) is smaller than your
    // concurrency setting (10000)" at every start is noise as well.
    if (message.includes("job batch size") && message.includes("smaller than your concurrency")) return;
    const fields: Record<string, unknown> = { component: "graphile-worker" };
    if (scope.jobId !== undefined) fields.jobId = String(scope.jobId);
    if (scope.taskIdentifier) fields.task = scope.taskIdentifier;
    if (scope.workerId) fields.workerId = scope.workerId;
    const error = meta?.error;
    if (error instanceof Error) fields.err = error;
    const logger = target();
    if (level === "error") logger.error(fields, message);
    else if (level === "warning") logger.warn(fields, message);
    else if (level === "info") logger.debug(fields, message);
    else logger.trace(fields, message);
  });
}

export const workerLogger = graphileLogger();
