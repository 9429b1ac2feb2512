import pLimit from "p-limit";
import { config } from "@/lib/config/config";

/**
 * Outside effects (HTTP calls) in flight at once per worker process, however many jobs the worker
 * holds: thousands of simultaneous calls to merchants' servers would be a flood, not throughput.
 * Default 32 (or `WORKER_OUTSIDE_CONCURRENCY`).
 */
export const outsideLimit = pLimit(config().WORKER_OUTSIDE_CONCURRENCY);

/**
 * Legs claim their runs or waits as soon as their jobs arrive (so a storm of due waits all
 * start at once), but their phases' transactions queue here: on a 2-core machine, two
 * at a time keep the database busy without the contention of dozens fighting over it.
 * Default 2 (or `WORKER_BATCH_TRANSACTIONS`).
 */
export const batchTransactionLimit = pLimit(config().WORKER_BATCH_TRANSACTIONS);
