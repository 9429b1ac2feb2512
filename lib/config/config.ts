import { parseEnv, type Config, type EnvName } from "./env";

/**
 * The typed configuration, parsed from the environment once and kept until the environment
 * changes. Nothing else reads `process.env`: every module asks `config()`.
 *
 * Why it re-parses after a change: tests set variables between cases, Next.js loads `.env` files
 * into the environment after the server has started, and a process that starts the embedded
 * database records its URL there (`setEnv`). Watching writes (a proxy over `process.env`) keeps
 * `config()` a field read on hot paths (every query asks it for `DATABASE_URL`) instead of a
 * re-read of fifty variables.
 */

const holder = globalThis as unknown as {
  __tillflowConfig?: { value: Config | null; watching: boolean };
};
const state = (holder.__tillflowConfig ??= { value: null, watching: false });

function watchEnv(): void {
  if (state.watching) return;
  state.watching = true;
  const forget = () => (state.value = null);
  process.env = new Proxy(process.env, {
    set(target, name, value) {
      forget();
      return Reflect.set(target, name, value);
    },
    deleteProperty(target, name) {
      forget();
      return Reflect.deleteProperty(target, name);
    },
    defineProperty(target, name, descriptor) {
      forget();
      return Reflect.defineProperty(target, name, descriptor);
    },
  });
}

/** The configuration. Throws a ConfigError (one sentence per bad variable) on a bad value. */
export function config(): Config {
  watchEnv();
  return (state.value ??= parseEnv(process.env));
}

/** Forgets the parsed configuration; the next `config()` parses the environment again. */
export function resetConfig(): void {
  state.value = null;
}

/**
 * Sets a variable for this process and the processes it starts (the embedded database's URL,
 * a process's own default pool size).
 */
export function setEnv(name: EnvName, value: string): void {
  watchEnv();
  (process.env as Record<string, string | undefined>)[name] = value;
}

/** Sets a variable only when it is unset. */
export function defaultEnv(name: EnvName, value: string): void {
  if (!process.env[name]) setEnv(name, value);
}

/** The environment a child process inherits, with `overrides`. */
export function childEnvironment(overrides: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, ...overrides } as NodeJS.ProcessEnv;
}
