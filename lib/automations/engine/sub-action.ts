/**
 * Ids of the actions a code step asked for: each is a step of the run named after the code step
 * and its number (`code1#2`), never a node of the graph (graph ids cannot contain `#`).
 */

const SEPARATOR = "#";

/** The node id of a code step's `number`th action (1-based); graph ids never contain `#`. */
export function subActionId(nodeId: string, number: number): string {
  return `${nodeId}${SEPARATOR}${number}`;
}

/** The code step and number of an action a code step asked for, or null for a node of the graph. */
export function parseSubActionId(id: string): { nodeId: string; number: number } | null {
  const at = id.lastIndexOf(SEPARATOR);
  if (at < 0) return null;
  const number = Number(id.slice(at + 1));
  return Number.isInteger(number) && number > 0 ? { nodeId: id.slice(0, at), number } : null;
}
