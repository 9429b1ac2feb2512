import type { DryRunStep } from "@/lib/automations/dry-run/result";
import { showValue, type GraphDiff, type NodeRef } from "@/lib/automations/review/diff";
import type { Graph } from "@/lib/automations/graph/schema";
import { handleLabel } from "@/lib/automations/nodes/catalog";

/**
 * The words of the editor's side panels (publish, versions, dry run), kept pure so they are
 * tested without a browser. Browser-safe: only types come from the server-only dry run module.
 * The publish state's words are in `publish-text.ts`, which the editor's first paint needs.
 */

export type DiffMarker = "+" | "−" | "~";

/** One line of a version diff: a marker that carries the meaning as text, never colour alone. */
export interface DiffEntry {
  marker: DiffMarker;
  kind: "added" | "removed" | "changed";
  /** "Added step: Add tag 'vip'", "Removed connection: 'Wait' → 'Add tag'". */
  text: string;
  /** For a changed step: one line per changed parameter ("duration: 1 → 2", "tag: 'vip' → 'gold'"). */
  details: string[];
}

function stepName(ref: NodeRef): string {
  return ref.summary || ref.label || ref.nodeId;
}

/**
 * The node-level diff between two versions as lines: steps added, removed and changed (with each
 * changed parameter, values as `describeDiff` shows them), then connections, whose ends are named
 * as the diff names them (falling back to the node id).
 */
export function diffEntries(diff: GraphDiff): DiffEntry[] {
  const nameOf = (id: string) => diff.names?.[id] ?? `'${id}'`;
  const entries: DiffEntry[] = [];
  for (const ref of diff.added) {
    entries.push({ marker: "+", kind: "added", text: `Added step: ${stepName(ref)}`, details: [] });
  }
  for (const ref of diff.removed) {
    entries.push({ marker: "−", kind: "removed", text: `Removed step: ${stepName(ref)}`, details: [] });
  }
  for (const change of diff.changed) {
    const now = stepName(change);
    const before = change.summaryBefore;
    const text = before && before !== now ? `Changed step: ${before} → ${now}` : `Changed step: ${now}`;
    const details = [
      ...(change.typeChanged ? ["The kind of step changed."] : []),
      ...change.params.map((p) => `${p.key}: ${showValue(p.before)} → ${showValue(p.after)}`),
    ];
    entries.push({ marker: "~", kind: "changed", text, details });
  }
  for (const edge of diff.edgesAdded) {
    entries.push({ marker: "+", kind: "added", text: connectionText("Added", edge, nameOf), details: [] });
  }
  for (const edge of diff.edgesRemoved) {
    entries.push({
      marker: "−",
      kind: "removed",
      text: connectionText("Removed", edge, nameOf),
      details: [],
    });
  }
  return entries;
}

function connectionText(
  verb: "Added" | "Removed",
  edge: { source: string; target: string; sourceHandle?: string },
  nameOf: (nodeId: string) => string,
): string {
  const handle =
    edge.sourceHandle && edge.sourceHandle !== "out" ? ` (${handleLabel(edge.sourceHandle)})` : "";
  return `${verb} connection: ${nameOf(edge.source)}${handle} → ${nameOf(edge.target)}`;
}

/** The version published just before `version` in a list of versions (any order), or null for the first. */
export function previousVersion<V extends { version: number }>(
  versions: readonly V[],
  version: number,
): V | null {
  let best: V | null = null;
  for (const v of versions) {
    if (v.version < version && (!best || v.version > best.version)) best = v;
  }
  return best;
}

/** How many steps a graph has, as words: "1 step", "4 steps". */
export function stepCount(graph: Graph): string {
  return graph.nodes.length === 1 ? "1 step" : `${graph.nodes.length} steps`;
}

export type PayloadParse =
  { ok: true; payload: Record<string, unknown> | undefined } | { ok: false; error: string };

/**
 * The dry run's "Event payload (JSON)" box: empty means no payload; otherwise it must be one JSON
 * object. The error is a sentence a merchant can act on, with where the parser stopped.
 */
export function parsePayload(text: string): PayloadParse {
  if (text.trim() === "") return { ok: true, payload: undefined };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      error: `The event payload is not valid JSON (${reason}). Check quotes, commas and braces.`,
    };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    const what = value === null ? "null" : Array.isArray(value) ? "a list" : `a ${typeof value}`;
    return {
      ok: false,
      error: `The event payload must be a JSON object such as {"total": 120}, not ${what}.`,
    };
  }
  return { ok: true, payload: value as Record<string, unknown> };
}

/**
 * A step's outcome as words (colour never carries it alone). A wait reads "would wait"; the panel
 * follows it with "until" and the time it would resume.
 */
export function outcomeText(outcome: DryRunStep["outcome"]): string {
  switch (outcome) {
    case "started":
      return "started";
    case "true":
      return "true";
    case "false":
      return "false";
    case "branch":
      return "branch taken";
    case "would_run":
      return "would run";
    case "would_wait":
      return "would wait";
    case "would_skip":
      return "would skip";
    case "error":
      return "error";
  }
}
