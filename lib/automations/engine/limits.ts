import pLimit from "p-limit";

/**
 * The one-run path (HTTP calls, replays, wake-table edge cases) runs at most this many legs at
 * once per worker process, however many jobs the worker holds: the batched path is why the worker
 * can hold thousands, and thousands of simultaneous HTTP calls would be a flood, not throughput.
 * Default 32 (or `WORKER_SOLO_CONCURRENCY`).
 */
export const soloLimit = pLimit(Number(process.env.WORKER_SOLO_CONCURRENCY ?? 32));

/**
 * Batched legs claim their runs or waits as soon as their jobs arrive (so a storm of due waits
 * all start at once), but their one big transaction each queues here: on a 2-core machine, two
 * at a time keep the database busy without the contention of dozens fighting over it.
 * Default 2 (or `WORKER_BATCH_TRANSACTIONS`).
 */
export const batchTransactionLimit = pLimit(Number(process.env.WORKER_BATCH_TRANSACTIONS ?? 2));
