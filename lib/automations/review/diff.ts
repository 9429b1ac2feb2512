import type { Graph, GraphEdge, GraphNode } from "@/lib/automations/graph/schema";
import { handleLabel } from "@/lib/automations/nodes/catalog";
import { flowDomain, registry, summariseNode } from "@/lib/automations/nodes/registry";

/**
 * What changed between two graphs, for "review changes before publishing" and version history.
 * Pure and browser-safe.
 *
 * - A node is the same node when its id is the same; moving it on the canvas is not a change.
 * - A connection is the same when it joins the same exit to the same step (source, sourceHandle,
 *   target); its id does not matter.
 * - Params are compared by value, per top-level param.
 */

export interface NodeRef {
  nodeId: string;
  type: string;
  /** The registry's label ("Add tag"), or the type for one this build does not know. */
  label: string;
  /** The node's sentence ("Add tag 'vip'"), from `summariseNode`. */
  summary: string;
}

export interface ParamChange {
  key: string;
  before: unknown;
  after: unknown;
}

export interface GraphDiff {
  added: NodeRef[];
  removed: NodeRef[];
  changed: (NodeRef & { summaryBefore: string; params: ParamChange[]; typeChanged: boolean })[];
  edgesAdded: GraphEdge[];
  edgesRemoved: GraphEdge[];
  isEmpty: boolean;
  /**
   * How each step of either graph is named in sentences ("'Add tag'", or its sentence "'Add tag
   * 'vip''" when two share a label; never its id), so `describeDiff` can name the ends of a
   * connection to an unchanged step.
   */
  names?: Record<string, string>;
}

function refOf(node: GraphNode, domain: string | null = null): NodeRef {
  return {
    nodeId: node.id,
    type: node.type,
    label: registry.get(node.type)?.label ?? node.type,
    summary: summariseNode(node, { domain }),
  };
}

/** Deep equality of JSON values; key order does not matter. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => sameValue(item, b[i]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  for (const key of keys) if (!sameValue(left[key], right[key])) return false;
  return true;
}

function paramChanges(before: Record<string, unknown>, after: Record<string, unknown>): ParamChange[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return keys
    .filter((key) => !sameValue(before[key], after[key]))
    .map((key) => ({ key, before: before[key], after: after[key] }));
}

const edgeKey = (edge: GraphEdge) => JSON.stringify([edge.source, edge.sourceHandle ?? "out", edge.target]);

export function diffGraphs(before: Graph | null, after: Graph): GraphDiff {
  const old = new Map((before?.nodes ?? []).map((node) => [node.id, node]));
  const now = new Map(after.nodes.map((node) => [node.id, node]));
  // Tokens in the steps' sentences are described with the flow's record: "the order's email".
  const domain = flowDomain(after);
  const added = after.nodes.filter((node) => !old.has(node.id)).map((node) => refOf(node, domain));
  const removed = (before?.nodes ?? [])
    .filter((node) => !now.has(node.id))
    .map((node) => refOf(node, domain));
  const changed: GraphDiff["changed"] = [];
  for (const node of after.nodes) {
    const was = old.get(node.id);
    if (!was) continue;
    const typeChanged = was.type !== node.type;
    const params = paramChanges(was.params ?? {}, node.params ?? {});
    if (!typeChanged && params.length === 0) continue;
    changed.push({
      ...refOf(node, domain),
      summaryBefore: summariseNode(was, { domain }),
      params,
      typeChanged,
    });
  }
  const oldEdges = new Set((before?.edges ?? []).map(edgeKey));
  const newEdges = new Set(after.edges.map(edgeKey));
  const edgesAdded = after.edges.filter((edge) => !oldEdges.has(edgeKey(edge)));
  const edgesRemoved = (before?.edges ?? []).filter((edge) => !newEdges.has(edgeKey(edge)));
  return {
    names: namesOf(before, after, domain),
    added,
    removed,
    changed,
    edgesAdded,
    edgesRemoved,
    isEmpty: added.length + removed.length + changed.length + edgesAdded.length + edgesRemoved.length === 0,
  };
}

/**
 * A step as sentences name it, never by its internal id: its label ("'Add tag'"); when two
 * steps share a label, its sentence ("'Add tag 'vip''"); when two share that too, the sentence
 * and which of them it is, in the order the flow lists them ("'Add tag 'vip'' (the 2nd)").
 */
function namesOf(before: Graph | null, after: Graph, domain: string | null): Record<string, string> {
  const nodes = new Map<string, GraphNode>();
  for (const node of before?.nodes ?? []) nodes.set(node.id, node);
  for (const node of after.nodes) nodes.set(node.id, node);
  const labelOf = (node: GraphNode) => registry.get(node.type)?.label ?? node.type;
  const sentenceOf = (node: GraphNode) => summariseNode(node, { domain });
  const tally = (of: (node: GraphNode) => string) => {
    const count = new Map<string, number>();
    for (const node of nodes.values()) count.set(of(node), (count.get(of(node)) ?? 0) + 1);
    return count;
  };
  const labels = tally(labelOf);
  const sentences = tally(sentenceOf);
  const seen = new Map<string, number>();
  const names: Record<string, string> = {};
  for (const node of nodes.values()) {
    const label = labelOf(node);
    if ((labels.get(label) ?? 0) < 2) {
      names[node.id] = `'${label}'`;
      continue;
    }
    const sentence = sentenceOf(node);
    if ((sentences.get(sentence) ?? 0) < 2) {
      names[node.id] = `'${sentence}'`;
      continue;
    }
    const nth = (seen.get(sentence) ?? 0) + 1;
    seen.set(sentence, nth);
    names[node.id] = `'${sentence}' (the ${ordinal(nth)})`;
  }
  return names;
}

/** 1st, 2nd, 3rd, 4th… 11th, 12th, 13th, 21st. */
function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? "th" : (({ 1: "st", 2: "nd", 3: "rd" } as Record<number, string>)[n % 10] ?? "th");
  return `${n}${suffix}`;
}

const MAX_SHOWN = 60;

/** How a param value reads in a sentence: 'text', 3, true, a list, JSON; "nothing" when unset. */
export function showValue(value: unknown): string {
  if (value === undefined || value === null || value === "") return "nothing";
  if (typeof value === "string") {
    const flat = value.replace(/\s+/g, " ");
    return `'${flat.length > MAX_SHOWN ? `${flat.slice(0, MAX_SHOWN - 1)}…` : flat}'`;
  }
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value) && value.every((item) => typeof item === "string" || typeof item === "number")) {
    return value.length === 0 ? "none" : value.map((item) => showValue(item)).join(", ");
  }
  const json = JSON.stringify(value) ?? "";
  return json.length > MAX_SHOWN ? `${json.slice(0, MAX_SHOWN - 1)}…` : json;
}

/**
 * The diff in plain English, one line per change: "Added 'Wait 2 days'", "Changed 'Add tag': tag
 * 'vip' → 'gold'", "Removed the connection from 'Order paid' to 'Add tag'".
 */
export function describeDiff(diff: GraphDiff): string[] {
  const name = (id: string) => diff.names?.[id] ?? "a step";
  const lines: string[] = [];
  for (const ref of diff.added) lines.push(`Added '${ref.summary}'`);
  for (const ref of diff.removed) lines.push(`Removed '${ref.summary}'`);
  for (const change of diff.changed) {
    const params = change.params.map((p) => `${p.key} ${showValue(p.before)} → ${showValue(p.after)}`);
    if (change.typeChanged) {
      lines.push(
        `Replaced '${change.summaryBefore}' with '${change.summary}'${params.length > 0 ? `: ${params.join("; ")}` : ""}`,
      );
    } else lines.push(`Changed ${name(change.nodeId)}: ${params.join("; ")}`);
  }
  const exit = (edge: GraphEdge) =>
    edge.sourceHandle && edge.sourceHandle !== "out" ? ` '${handleLabel(edge.sourceHandle)}'` : "";
  for (const edge of diff.edgesAdded)
    lines.push(`Added the${exit(edge)} connection from ${name(edge.source)} to ${name(edge.target)}`);
  for (const edge of diff.edgesRemoved)
    lines.push(`Removed the${exit(edge)} connection from ${name(edge.source)} to ${name(edge.target)}`);
  return lines;
}
