/**
 * Keeping a settings form in step with the node it edits. Pure; `useParamsSync` in
 * `node-config.tsx` holds the state.
 *
 * The form keeps its own input state (a half-typed number or JSON must not be lost), so it must
 * start over only when the params change for a reason other than its own edits: another node was
 * selected, or the params were changed elsewhere (undo, a revert, the AI builder). Its own edits
 * come back as props later, possibly a few edits behind (the editor debounces saving), and
 * possibly with their keys reordered by a round trip through JSONB; those must not reset it. So
 * the state remembers the params it sent recently, compared by a key-order-free JSON.
 */

export interface ParamsSyncState {
  nodeId: string;
  /** The params last received, as `stableJson`. */
  received: string;
  /** The params the form sent, most recent last, as `stableJson`. */
  sent: readonly string[];
  /** Bumped when the form must start over; part of its React key. */
  revision: number;
  /** The params the form shows and validates. */
  values: Record<string, unknown>;
}

/** How many recent edits count as the form's own when they come back. */
const REMEMBERED = 50;

/** JSON with object keys sorted, so `{a, b}` and `{b, a}` read the same. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    typeof item === "object" && item !== null && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}

export function initialSync(node: { id: string; params: Record<string, unknown> }): ParamsSyncState {
  const json = stableJson(node.params);
  return { nodeId: node.id, received: json, sent: [json], revision: 0, values: node.params };
}

/** The state after the node's props arrive; the same object when nothing needs to change. */
export function receive(
  state: ParamsSyncState,
  node: { id: string; params: Record<string, unknown> },
): ParamsSyncState {
  if (node.id !== state.nodeId) return { ...initialSync(node), revision: state.revision + 1 };
  const json = stableJson(node.params);
  if (json === state.received) return state;
  // One of the form's own edits coming back: nothing to reset.
  if (state.sent.includes(json)) return { ...state, received: json };
  return { ...state, received: json, sent: [json], revision: state.revision + 1, values: node.params };
}

/** The state after the form sends `values`. */
export function send(state: ParamsSyncState, values: Record<string, unknown>): ParamsSyncState {
  return { ...state, values, sent: [...state.sent, stableJson(values)].slice(-REMEMBERED) };
}
