// A thread of the script pool (pool.ts). The sandbox is TypeScript: tsx compiles it on the fly,
// as it does for the worker and the CLI, wherever the pool runs (web server, worker, tests).
import { register } from "tsx/esm/api";

register();
await import("./script-thread.ts");
