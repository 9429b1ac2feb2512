"use client";

import { useCallback, useState } from "react";

export type NodeLogic = typeof import("./node-logic");

let loading: Promise<NodeLogic> | null = null;

/** The registry's half of the editor (`node-logic.ts`), fetched once; a failed fetch is retried. */
function loadNodeLogic(): Promise<NodeLogic> {
  loading ??= import("./node-logic").catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

/**
 * The editor's node logic: null until `load` (called on the first pointer, key or focus in the
 * editor) brings it, then the module itself.
 */
export function useNodeLogic(): { logic: NodeLogic | null; load(): Promise<NodeLogic> } {
  const [logic, setLogic] = useState<NodeLogic | null>(null);
  const load = useCallback(
    () =>
      loadNodeLogic().then((loaded) => {
        setLogic(loaded);
        return loaded;
      }),
    [],
  );
  return { logic, load };
}
