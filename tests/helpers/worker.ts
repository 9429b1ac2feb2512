import { afterAll, beforeAll } from "vitest";
import { startWorker, type WorkerHandle } from "@/worker/run";

/**
 * The real worker (graphile-worker and the wake timer) in this process, on this test file's
 * database, or on `connectionString`. No crontab: tests tick schedules themselves.
 */
export function startTestWorker(connectionString = process.env.DATABASE_URL!): Promise<WorkerHandle> {
  return startWorker({ connectionString, crontab: false });
}

export interface FileWorker {
  /** Stops the worker (a test that parks work, or plays a crash); the file's end skips a stopped one. */
  stop(): Promise<void>;
  /** Starts it again after `stop()`. */
  start(): Promise<void>;
}

/**
 * The real worker for the whole test file: started in a `beforeAll` hook, stopped in an
 * `afterAll`. Hooks run in the order they are registered, so call this after the `beforeAll`
 * that creates the file's shops (and receivers) to start the worker after them, as before.
 */
export function workerForFile(): FileWorker {
  let handle: WorkerHandle | null = null;
  const fileWorker: FileWorker = {
    async start() {
      if (handle) throw new Error("The file's worker is already running.");
      handle = await startTestWorker();
    },
    async stop() {
      const running = handle;
      handle = null;
      await running?.stop();
    },
  };
  beforeAll(() => fileWorker.start());
  afterAll(() => fileWorker.stop());
  return fileWorker;
}
