"use client";

import { useCallback, useMemo, useRef, useState } from "react";
import { recordEdit, redoEdit, startHistory, undoEdit, type History } from "@/lib/automations/editor/history";

/**
 * Undo/redo over snapshots (the bookkeeping is `lib/automations/editor/history.ts`). `record` is
 * called after each finished edit (a drop, a connection, a typed value once typing pauses), never
 * per drag frame; recording clears the redo stack.
 */
export function useHistory<T>(initial: T) {
  const history = useRef<History<T>>(startHistory(initial));
  // What the Undo/Redo buttons show, mirrored from the stacks whenever they change.
  const [counts, setCounts] = useState({ undo: 0, redo: 0 });
  const move = useCallback((next: History<T>) => {
    history.current = next;
    setCounts({ undo: next.past.length, redo: next.future.length });
  }, []);

  const record = useCallback((next: T) => move(recordEdit(history.current, next)), [move]);

  const undo = useCallback((): T | undefined => {
    const next = undoEdit(history.current);
    if (!next) return undefined;
    move(next);
    return next.present;
  }, [move]);

  const redo = useCallback((): T | undefined => {
    const next = redoEdit(history.current);
    if (!next) return undefined;
    move(next);
    return next.present;
  }, [move]);

  const read = useCallback(() => history.current.present, []);
  // One object per change of the stacks, so callers can list it in effect dependencies.
  return useMemo(
    () => ({ record, undo, redo, present: read, canUndo: counts.undo > 0, canRedo: counts.redo > 0 }),
    [record, undo, redo, read, counts],
  );
}
