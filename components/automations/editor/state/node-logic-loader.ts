export type NodeLogic = typeof import("./node-logic");

let loading: Promise<NodeLogic> | null = null;
/** Set once the module has arrived, so an editor mounted later (after a publish) starts with it. */
let loaded: NodeLogic | null = null;

/**
 * The registry's half of the editor (`node-logic.ts`), fetched once per page and shared by the
 * editors mounted on it (a module's code, not anyone's state); a failed fetch is retried.
 */
export function loadNodeLogic(): Promise<NodeLogic> {
  loading ??= import("./node-logic").then(
    (module) => (loaded = module),
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/** The module when it has arrived already, else null. */
export function loadedNodeLogic(): NodeLogic | null {
  return loaded;
}
