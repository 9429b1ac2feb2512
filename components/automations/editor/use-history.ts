"use client";

import { useCallback, useMemo, useRef, useState } from "react";

const LIMIT = 100;

/**
 * Undo/redo over snapshots. `record` is called after each finished edit (a drop, a connection,
 * a typed value once typing pauses), never per drag frame; recording clears the redo stack.
 */
export function useHistory<T>(initial: T) {
  const past = useRef<T[]>([]);
  const future = useRef<T[]>([]);
  const present = useRef<T>(initial);
  // What the Undo/Redo buttons show, mirrored from the stacks whenever they change.
  const [counts, setCounts] = useState({ undo: 0, redo: 0 });
  const bump = () => setCounts({ undo: past.current.length, redo: future.current.length });

  const record = useCallback((next: T) => {
    past.current = [...past.current, present.current].slice(-LIMIT);
    future.current = [];
    present.current = next;
    bump();
  }, []);

  const undo = useCallback((): T | undefined => {
    const previous = past.current.at(-1);
    if (previous === undefined) return undefined;
    past.current = past.current.slice(0, -1);
    future.current = [present.current, ...future.current];
    present.current = previous;
    bump();
    return previous;
  }, []);

  const redo = useCallback((): T | undefined => {
    const next = future.current[0];
    if (next === undefined) return undefined;
    future.current = future.current.slice(1);
    past.current = [...past.current, present.current];
    present.current = next;
    bump();
    return next;
  }, []);

  const read = useCallback(() => present.current, []);
  // One object per change of the stacks, so callers can list it in effect dependencies.
  return useMemo(
    () => ({ record, undo, redo, present: read, canUndo: counts.undo > 0, canRedo: counts.redo > 0 }),
    [record, undo, redo, read, counts],
  );
}
