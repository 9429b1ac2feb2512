import { spawn, type ChildProcess } from "node:child_process";

const started: ChildProcess[] = [];

/**
 * A real worker process, as `npm run worker` starts it, on this test file's database. Its peers
 * count it dead 5 s after its last heartbeat (so a test can sweep a SIGKILLed one quickly).
 */
export function spawnWorker(): ChildProcess {
  const child = spawn(process.execPath, ["--import", "tsx", "worker/index.ts"], {
    env: { ...process.env, TILLFLOW_WORKER_DEAD_AFTER_MS: "5000" },
    stdio: "ignore",
  });
  started.push(child);
  return child;
}

/** Kills every worker process this file started that is still running. */
export function killWorkers(): void {
  for (const child of started) if (child.exitCode === null) child.kill("SIGKILL");
}
