import { parentPort } from "node:worker_threads";
import { runSandboxed, sandboxMemoryBytes, type ScriptInput, type ScriptOutcome } from "./sandbox";

/** What the pool sends a thread: one script to run. */
export interface ThreadTask {
  source: string;
  input: ScriptInput;
}

/** What a thread answers: the outcome, and how large its WebAssembly memory has grown. */
export interface ThreadReply {
  outcome: ScriptOutcome;
  memoryBytes: number;
}

/** What a thread says once, when it has loaded and takes scripts. */
export interface ThreadReady {
  ready: true;
}

const port = parentPort;
if (!port) throw new Error("script-thread.ts runs as a worker thread of the script pool (pool.ts).");

port.on("message", (task: ThreadTask) => {
  void (async () => {
    const outcome = await runSandboxed(task.source, task.input);
    const reply: ThreadReply = { outcome, memoryBytes: await sandboxMemoryBytes() };
    port.postMessage(reply);
  })();
});
const ready: ThreadReady = { ready: true };
port.postMessage(ready);
