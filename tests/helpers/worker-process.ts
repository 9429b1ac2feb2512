import { spawn, type ChildProcess } from "node:child_process";
import { entrypointArgs } from "@/tests/helpers/entrypoints";

const started: ChildProcess[] = [];

/**
 * A real worker process (`worker/index.ts`, compiled once a run: entrypoints.ts) on this test
 * file's database. Its peers count it dead 5 s after its last heartbeat (so a test sees a
 * SIGKILLed one swept quickly); `env` overrides that or adds settings. Outbound HTTP to this
 * machine is allowed (the tests' receivers listen on 127.0.0.1).
 */
export function spawnWorker(env: Record<string, string> = {}): ChildProcess {
  const child = spawn(process.execPath, entrypointArgs("worker"), {
    env: {
      ...process.env,
      TILLFLOW_WORKER_DEAD_AFTER_MS: "5000",
      HTTP_ACTION_ALLOW: "127.0.0.1,localhost",
      ...env,
    },
    stdio: "ignore",
  });
  started.push(child);
  return child;
}

/** Kills every worker process this file started that is still running. */
export function killWorkers(): void {
  for (const child of started)
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
}
