import type { Graph } from "@/lib/automations/graph/schema";

/**
 * Undo/redo bookkeeping as pure functions over snapshots: the past (oldest first), the present
 * and the future (next first). The editor's store (`state/store.ts`) keeps one of these.
 */
export interface History<T> {
  past: readonly T[];
  present: T;
  future: readonly T[];
}

/** How many edits Undo goes back at most. */
export const HISTORY_LIMIT = 100;

export function startHistory<T>(present: T): History<T> {
  return { past: [], present, future: [] };
}

/** `next` after a finished edit: the present joins the past (the oldest beyond the limit drops), redo is gone. */
export function recordEdit<T>(history: History<T>, next: T): History<T> {
  return { past: [...history.past, history.present].slice(-HISTORY_LIMIT), present: next, future: [] };
}

/** One step back; null when there is nothing to undo. */
export function undoEdit<T>(history: History<T>): History<T> | null {
  if (history.past.length === 0) return null;
  const previous = history.past[history.past.length - 1]!;
  return {
    past: history.past.slice(0, -1),
    present: previous,
    future: [history.present, ...history.future],
  };
}

/** One step forward again; null when there is nothing to redo. */
export function redoEdit<T>(history: History<T>): History<T> | null {
  if (history.future.length === 0) return null;
  const [next, ...rest] = history.future;
  return { past: [...history.past, history.present], present: next!, future: rest };
}

/** What a pause in typing compares: each step's id, type and params, not where it sits. */
export function paramsKey(graph: Graph): string {
  return JSON.stringify(graph.nodes.map((n) => [n.id, n.type, n.params]));
}
