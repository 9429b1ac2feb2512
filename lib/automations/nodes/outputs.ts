import type { StepOutput } from "./types";

/**
 * What a step hands on (SPEC §2 "What a step hands on"), pure and browser-safe:
 * - the limits (seed 001 "context bloat"): a step's output at most 16 KB of JSON, a run's outputs
 *   together at most 256 KB; the code step's sandbox stops a script's return value at the same
 *   16 KB (`code/sandbox.ts` reads `STEP_OUTPUT_LIMITS`);
 * - `cutOutput`: an output cut to a budget, keeping as much of its structure as fits;
 * - `cutReach`: whether a path reaches into the part that was cut;
 * - `declaredOutput`: whether a path is one a node declares it hands on.
 */

export const STEP_OUTPUT_LIMITS = {
  /** One step's output, as JSON. */
  stepBytes: 16_000,
  /** A run's outputs together, as JSON. */
  runBytes: 256_000,
} as const;

/**
 * Where an output that was cut says so: the containers that lost members (`body.items.*`; `*` for
 * the output itself) and the reason in the merchant's words.
 */
export const CUT_KEY = "truncated";

export interface CutMark {
  /** Each container that lost members, as `path.*` (`*`: the output itself). */
  paths: string[];
  /** What the run page says: "The answer was larger than 16 KB; only part of it was kept." */
  note: string;
  /** Why, after a token's name: "the answer of 'Send HTTP request' was larger than 16 KB". */
  reason: string;
}

export function jsonBytes(value: unknown): number {
  const text = JSON.stringify(value);
  return text === undefined ? 0 : new TextEncoder().encode(text).length;
}

function isContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  return typeof value === "object" && value !== null;
}

/** The smallest a kept container can be: `{}` or `[]`. */
const EMPTY_BYTES = 2;

/**
 * `value` cut to at most `budget` bytes of JSON: members are kept in order while they fit whole;
 * the first that does not is kept in part when it is a container (the same way, with what is left)
 * and the members after it are cut. Each container that lost members is added to `cut`.
 */
function cutTo(value: Record<string, unknown> | unknown[], budget: number, path: string, cut: string[]) {
  const array = Array.isArray(value);
  const entries: [string, unknown][] = array ? value.map((v, i) => [String(i), v]) : Object.entries(value);
  const kept: [string, unknown][] = [];
  let used = EMPTY_BYTES;
  for (const [key, member] of entries) {
    if (member === undefined) continue;
    const head = (kept.length > 0 ? 1 : 0) + (array ? 0 : jsonBytes(key) + 1);
    const size = jsonBytes(member);
    if (used + head + size <= budget) {
      kept.push([key, member]);
      used += head + size;
      continue;
    }
    const room = budget - used - head;
    if (isContainer(member) && room > EMPTY_BYTES) {
      const before = cut.length;
      const part = cutTo(member, room, path ? `${path}.${key}` : key, cut);
      // An empty part says nothing: the member is cut whole (this container's mark covers it).
      if (Object.keys(part).length > 0) kept.push([key, part]);
      else cut.length = before;
    }
    cut.push(path ? `${path}.*` : "*");
    break;
  }
  return array ? kept.map(([, v]) => v) : Object.fromEntries(kept);
}

/**
 * `output` as kept within `budget` bytes of JSON, mark included: as it is when it fits, else cut
 * (`cutTo`) with a `truncated` mark saying what was cut and why. Already-cut output keeps its mark.
 */
export function cutOutput(
  output: Record<string, unknown>,
  budget: number,
  why: Pick<CutMark, "note" | "reason">,
): Record<string, unknown> {
  if (jsonBytes(output) <= budget) return output;
  // Room for the mark first (its paths are a short chain: one per level cut into).
  const draft: CutMark = { paths: ["*"], ...why };
  const markBytes = jsonBytes({ [CUT_KEY]: draft }) + 200;
  const cut: string[] = [];
  const { [CUT_KEY]: _earlier, ...rest } = output;
  const kept = cutTo(rest, Math.max(budget - markBytes, EMPTY_BYTES), "", cut) as Record<string, unknown>;
  const result = { ...kept, [CUT_KEY]: { paths: cut.length > 0 ? cut : ["*"], ...why } satisfies CutMark };
  // A mark whose paths outgrew its room (a very deep cut): the mark alone.
  return jsonBytes(result) <= budget ? result : { [CUT_KEY]: { ...draft } };
}

/** The mark of an output that was cut, or null. */
export function cutMarkOf(output: unknown): CutMark | null {
  if (!isContainer(output) || Array.isArray(output)) return null;
  const mark = output[CUT_KEY];
  if (!isContainer(mark) || Array.isArray(mark)) return null;
  const { paths, note, reason } = mark as Record<string, unknown>;
  if (!Array.isArray(paths) || typeof note !== "string" || typeof reason !== "string") return null;
  return { paths: paths.filter((p): p is string => typeof p === "string"), note, reason };
}

function readIn(value: unknown, segments: readonly string[]): unknown {
  let at = value;
  for (const segment of segments) {
    if (!isContainer(at)) return undefined;
    at = (at as Record<string, unknown>)[segment];
  }
  return at;
}

/**
 * Whether `path` (segments under a step's output: `["body", "items"]`) reaches into the part of
 * `output` that was cut: it names a container that lost members (or one holding such a
 * container), or a member missing from one.
 */
export function cutReach(output: unknown, path: readonly string[]): boolean {
  const mark = cutMarkOf(output);
  if (!mark) return false;
  return mark.paths.some((entry) => {
    const container = entry === "*" ? [] : entry.replace(/\.\*$/, "").split(".");
    // The path names the cut container itself, or something that holds it.
    if (path.length <= container.length) return path.every((segment, i) => segment === container[i]);
    // A path under the container: cut when its value is gone.
    return container.every((segment, i) => segment === path[i]) && readIn(output, path) === undefined;
  });
}

/**
 * Whether `path` (under a step's output, `""` for the whole of it) is one of the `declared`
 * outputs: equal to one, under one ending in `.*` (or `*`), or holding one (`headers` holds
 * `headers.*`).
 */
export function declaredOutput(declared: readonly StepOutput[], path: string): boolean {
  if (path === "") return declared.length > 0;
  return declared.some(({ path: out }) => {
    if (out === "*" || out === path) return true;
    if (out.endsWith(".*")) {
      const base = out.slice(0, -2);
      return path === base || path.startsWith(`${base}.`);
    }
    return out.startsWith(`${path}.`);
  });
}
