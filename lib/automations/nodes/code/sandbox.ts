import fs from "node:fs";
import {
  newQuickJSWASMModule,
  newVariant,
  RELEASE_SYNC,
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSWASMModule,
} from "quickjs-emscripten";
import { registry } from "@/lib/automations/nodes/registry";
import { STEP_OUTPUT_LIMITS } from "@/lib/automations/nodes/outputs";
import { isScriptActionName, MAX_SCRIPT_ACTIONS, SCRIPT_ACTIONS, type ScriptAction } from "./script-actions";

/**
 * Runs a merchant's code step in QuickJS (compiled to WebAssembly), never in Node: a fresh runtime
 * and context per run, on a thread of the script pool (pool.ts), with no `require`, `process`,
 * network, file system, `Date` or `Math.random`, at most 64 MB of memory, 1 second of CPU (10 of
 * wall time) and a small stack.
 * The script sees `event`, `entity`, `steps` and `variables` as frozen copies and `actions.*`,
 * which only collect what it asks for: the engine takes those actions after it has returned.
 */

export const SCRIPT_LIMITS = {
  sourceBytes: 64_000,
  memoryBytes: 64 * 1024 * 1024,
  cpuMs: 1_000,
  /** A script waiting on nothing cannot take long, but a starved process can: wall time is capped too. */
  wallMs: 10_000,
  /** Below the host's own stack: deep recursion is a clean "stack overflow" inside the sandbox. */
  stackBytes: 256 * 1024,
  resultBytes: STEP_OUTPUT_LIMITS.stepBytes,
} as const;

export interface ScriptInput {
  event: Record<string, unknown>;
  entity: Record<string, unknown> | null;
  steps: Record<string, unknown>;
  variables: Record<string, unknown>;
}

export type ScriptOutcome =
  | {
      ok: true;
      /** The return value as `{steps.<id>.…}` reads it: an object as it is, anything else as `{ value }`. */
      result: Record<string, unknown>;
      actions: ScriptAction[];
      ms: number;
    }
  | {
      ok: false;
      error: string;
      line: number | null;
      ms: number;
      /** The limit the script was stopped at, if any: its thread is then replaced (pool.ts). */
      limit?: ScriptLimit;
    };

export type ScriptLimit = "cpu" | "wall" | "memory";

let wasm: Promise<QuickJSWASMModule> | null = null;

/**
 * How far the sandbox's WebAssembly memory may grow: the script's limit plus room for QuickJS
 * itself. Past it an allocation fails inside the script ("out of memory"); left unbounded, the
 * memory of one script stopped at 64 MB grew to 2 GB (and a WebAssembly memory never shrinks).
 */
const WASM_MAX_BYTES = SCRIPT_LIMITS.memoryBytes + 32 * 1024 * 1024;
const WASM_PAGE_BYTES = 64 * 1024;
/** QuickJS's own starting size (16 MB). */
const WASM_INITIAL_PAGES = 256;

/** Loads the WebAssembly module once per thread, on a memory of bounded size. */
function quickJS(): Promise<QuickJSWASMModule> {
  wasm ??= newQuickJSWASMModule(
    newVariant(RELEASE_SYNC, {
      wasmMemory: new WebAssembly.Memory({
        initial: WASM_INITIAL_PAGES,
        maximum: WASM_MAX_BYTES / WASM_PAGE_BYTES,
      }),
    }),
  );
  return wasm;
}

/** The bytes of this thread's WebAssembly memory: it grows with the largest script and never shrinks. */
export async function sandboxMemoryBytes(): Promise<number> {
  return (await quickJS()).getWasmMemory().buffer.byteLength;
}

const TICK_MS = 10; // Linux's USER_HZ is 100

/**
 * CPU milliseconds this thread has used (Linux: /proc/thread-self/stat, in 10 ms ticks), so a
 * script is measured by its own thread and not by the other scripts and requests of the process.
 * Elsewhere, the process's CPU: an over-estimate, never an under-estimate.
 */
function threadCpuMs(): number {
  try {
    const stat = fs.readFileSync("/proc/thread-self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    const used = process.cpuUsage();
    return (used.user + used.system) / 1000;
  }
}

/** Defines the script's world; `__input` and `__act` are removed from the global object after. */
const PRELUDE = `
"use strict";
(() => {
  const freeze = (value) => {
    if (value !== null && typeof value === "object") {
      for (const key of Object.keys(value)) freeze(value[key]);
      Object.freeze(value);
    }
    return value;
  };
  const input = freeze(JSON.parse(globalThis.__input));
  const act = globalThis.__act;
  const actions = {};
  for (const name of ${JSON.stringify(Object.keys(SCRIPT_ACTIONS))})
    actions[name] = (...args) => { act(name, JSON.stringify(args)); };
  const unavailable = (target, name, what, instead) =>
    Object.defineProperty(target, name, {
      get() {
        throw new Error(what + " is not available in a code step" + instead);
      },
    });
  Object.defineProperty(globalThis, "__tillflow", {
    value: freeze({ ...input, actions: freeze(actions) }),
  });
  unavailable(globalThis, "Date", "Date", "; read the time from event.at");
  unavailable(Math, "random", "Math.random", "");
  delete globalThis.__input;
  delete globalThis.__act;
})();
`;

/** The script as the body of a function, on the same first line, so error lines are the merchant's. */
function wrap(source: string): string {
  return `(function (event, entity, steps, variables, actions) {"use strict";${source}\n}).call(undefined, __tillflow.event, __tillflow.entity, __tillflow.steps, __tillflow.variables, __tillflow.actions)`;
}

const FILE = "code-step.js";

/** The script's line an error points at (at most its last line: a missing `)` is found at the end). */
function lineOf(error: Record<string, unknown>, source: string): number | null {
  const match = typeof error.stack === "string" ? new RegExp(`${FILE}:(\\d+)`).exec(error.stack) : null;
  const line = typeof error.lineNumber === "number" ? error.lineNumber : match ? Number(match[1]) : null;
  return line === null ? null : Math.min(line, source.split("\n").length);
}

/** The sentence a failed script is reported with: the script's own message, and its line. */
function describeFailure(
  raw: unknown,
  source: string,
  stopped: "cpu" | "wall" | null,
): { error: string; line: number | null; limit?: ScriptLimit } {
  const error = raw !== null && typeof raw === "object" ? (raw as Record<string, unknown>) : { message: raw };
  const line = lineOf(error, source);
  const at = line ? ` (line ${line})` : "";
  const message = String(error.message ?? raw).replace(/\.$/, "");
  // QuickJS cannot say reliably which line was running when it was interrupted: none is named.
  if (stopped === "cpu" || (stopped === null && message === "interrupted"))
    return { error: "The script ran for more than 1 second and was stopped.", line: null, limit: "cpu" };
  if (stopped === "wall")
    return { error: "The script took more than 10 seconds and was stopped.", line: null, limit: "wall" };
  if (message === "out of memory")
    return {
      error: `The script used more than 64 MB of memory and was stopped${at}.`,
      line,
      limit: "memory",
    };
  if (message === "stack overflow")
    return { error: `The script called itself too deeply (stack overflow)${at}.`, line };
  const name = typeof error.name === "string" && error.name !== "Error" ? `${error.name}: ` : "";
  return { error: `${name}${message}${at}.`, line };
}

function toResult(value: unknown): Record<string, unknown> {
  if (value === null || value === undefined) return {};
  if (typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  return { value };
}

/** Validates one `actions.*` call against its node's params; the script sees a refusal as a thrown Error. */
function collect(actions: ScriptAction[], name: string, argsJson: string): string | null {
  if (!isScriptActionName(name)) return `actions.${name} is not an action.`;
  if (actions.length >= MAX_SCRIPT_ACTIONS)
    return `A code step can take at most ${MAX_SCRIPT_ACTIONS} actions; actions.${name} would be the ${MAX_SCRIPT_ACTIONS + 1}st.`;
  const spec = SCRIPT_ACTIONS[name];
  const parsed = registry.get(spec.type)!.params.safeParse(spec.params(JSON.parse(argsJson) as unknown[]));
  if (!parsed.success) {
    const detail = parsed.error.issues
      .map((i) => `${i.path.join(".") || "argument"} ${i.message}`)
      .join("; ");
    return `${spec.signature}: ${detail}.`;
  }
  actions.push({ call: name, type: spec.type, params: parsed.data as Record<string, unknown> });
  return null;
}

function evaluate(
  vm: QuickJSContext,
  code: string,
  file: string,
): { ok: true; value: unknown } | { ok: false; error: unknown } {
  const result = vm.evalCode(code, file);
  if (result.error) {
    const error: unknown = vm.dump(result.error);
    result.error.dispose();
    return { ok: false, error };
  }
  const value: unknown = vm.dump(result.value);
  result.value.dispose();
  return { ok: true, value };
}

/**
 * Runs `source` against `input` in a fresh sandbox, on the calling thread: only a thread of the
 * script pool calls it (pool.ts `runScript`). Never throws for anything the script does.
 */
export async function runSandboxed(source: string, input: ScriptInput): Promise<ScriptOutcome> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  if (Buffer.byteLength(source) > SCRIPT_LIMITS.sourceBytes)
    return { ok: false, error: "The script is longer than 64 KB.", line: null, ms: 0 };
  const runtime = (await quickJS()).newRuntime();
  runtime.setMemoryLimit(SCRIPT_LIMITS.memoryBytes);
  runtime.setMaxStackSize(SCRIPT_LIMITS.stackBytes);
  // The CPU this thread spent since the script started (the script runs on it alone), not the
  // wall clock: a busy machine must not fail a short script. Read every 20 ms at most.
  const cpuAtStart = threadCpuMs();
  const wallDeadline = Date.now() + SCRIPT_LIMITS.wallMs;
  let stopped: "cpu" | "wall" | null = null;
  let nextCheck = 0;
  runtime.setInterruptHandler(() => {
    const now = Date.now();
    if (now < nextCheck) return false;
    nextCheck = now + 20;
    if (threadCpuMs() - cpuAtStart > SCRIPT_LIMITS.cpuMs) stopped = "cpu";
    else if (now > wallDeadline) stopped = "wall";
    return stopped !== null;
  });
  const vm = runtime.newContext();
  const actions: ScriptAction[] = [];
  try {
    const act: QuickJSHandle = vm.newFunction("__act", (nameHandle, argsHandle) => {
      const refusal = collect(actions, vm.getString(nameHandle), vm.getString(argsHandle));
      if (refusal) return { error: vm.newError(refusal) };
      return vm.undefined;
    });
    vm.setProp(vm.global, "__act", act);
    act.dispose();
    const inputHandle = vm.newString(JSON.stringify(input));
    vm.setProp(vm.global, "__input", inputHandle);
    inputHandle.dispose();
    const prelude = evaluate(vm, PRELUDE, "sandbox.js");
    if (!prelude.ok)
      throw new Error(`The code step sandbox failed to start: ${JSON.stringify(prelude.error)}`);

    const ran = evaluate(vm, `JSON.stringify(${wrap(source)} ?? null)`, FILE);
    if (!ran.ok) return { ok: false, ...describeFailure(ran.error, source, stopped), ms: ms() };
    const json = typeof ran.value === "string" ? ran.value : "null";
    if (Buffer.byteLength(json) > SCRIPT_LIMITS.resultBytes)
      return {
        ok: false,
        error: "The script's return value is larger than 16 KB of JSON.",
        line: null,
        ms: ms(),
      };
    return { ok: true, result: toResult(JSON.parse(json)), actions, ms: ms() };
  } finally {
    vm.dispose();
    runtime.dispose();
  }
}
