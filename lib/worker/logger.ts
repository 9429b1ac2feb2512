import { Logger } from "graphile-worker";

/**
 * graphile-worker logs every job at info level; at a thousand jobs a second that drowns what
 * matters. Warnings and errors are kept; `WORKER_LOG=info` brings the rest back for debugging.
 */
export const workerLogger = new Logger((scope) => (level, message) => {
  if (process.env.WORKER_LOG !== "info" && level !== "error" && level !== "warning") return;
  // Deliberate (worker/run.ts): jobs waiting on a RunBatcher hold no connection, so the pool is far
  // smaller than concurrency, and graphile-worker's "WARNING: having maxPoolSize (16) smaller than
  // concurrency (10000) ..." at every start is noise. Matched by its words, not its prefix.
  if (message.includes("maxPoolSize") && message.includes("smaller than concurrency")) return;
  // Deliberate too: a worker locks at most WORKER_LOCAL_QUEUE jobs at once (a killed worker costs
  // every job it had locked an attempt), so "Your job batch size (1000) is smaller than your
  // concurrency setting (10000)" at every start is noise as well.
  if (message.includes("job batch size") && message.includes("smaller than your concurrency")) return;
  const where = scope.taskIdentifier ? ` ${scope.taskIdentifier}` : "";
  const line = `[graphile-worker${where}] ${message}`;
  if (level === "error") console.error(line);
  else console.log(line);
});
