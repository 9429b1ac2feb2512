"use client";

import { useCallback, useState } from "react";

export type NodeLogic = typeof import("./node-logic");

let loading: Promise<NodeLogic> | null = null;
/** Set once the module has arrived, so an editor mounted later (after a publish) starts with it. */
let loaded: NodeLogic | null = null;

/** The registry's half of the editor (`node-logic.ts`), fetched once; a failed fetch is retried. */
function loadNodeLogic(): Promise<NodeLogic> {
  loading ??= import("./node-logic").then(
    (module) => (loaded = module),
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/**
 * The editor's node logic: null until `load` (called on the first pointer, key or focus in the
 * editor) brings it, then the module itself.
 */
export function useNodeLogic(): { logic: NodeLogic | null; load(): Promise<NodeLogic> } {
  const [logic, setLogic] = useState<NodeLogic | null>(loaded);
  const load = useCallback(
    () =>
      loadNodeLogic().then((module) => {
        setLogic(module);
        return module;
      }),
    [],
  );
  return { logic, load };
}
