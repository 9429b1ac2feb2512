import { splitBranchIds, splitBranchLabel } from "./split/split-branches";
import type { NodeDefinition, TriggerDomain } from "./types";

/**
 * The node catalog: what the editor shows of a node type before anyone edits — its label,
 * category, handles, description, domain, platform flag and palette group — without its params
 * schema. The page derives it from the registry on the server (`nodeCatalog` in `registry.ts`)
 * and hands it to the browser as data, so the editor's first load needs neither zod nor the node
 * definitions.
 */
export type NodeInfo = Pick<
  NodeDefinition,
  | "type"
  | "category"
  | "label"
  | "description"
  | "handles"
  | "entityDomain"
  | "event"
  | "platform"
  | "paletteTiming"
>;

/** Looks a node type up: the registry does, and so does a catalog. */
export interface NodeLookup {
  get(type: string): NodeInfo | undefined;
}

export interface NodeCatalog extends NodeLookup {
  all(): NodeInfo[];
}

/** A definition's catalog entry: plain data, fit to cross from the server to the browser. */
export function nodeInfo(definition: NodeDefinition): NodeInfo {
  const { type, category, label, description, handles, entityDomain, event, platform, paletteTiming } =
    definition;
  return {
    type,
    category,
    label,
    description,
    handles: {
      in: handles.in,
      out: [...handles.out],
      ...(handles.outFrom !== undefined && { outFrom: handles.outFrom }),
    },
    ...(entityDomain !== undefined && { entityDomain }),
    ...(event !== undefined && { event }),
    ...(platform !== undefined && { platform }),
    ...(paletteTiming !== undefined && { paletteTiming }),
  };
}

/** A lookup over catalog entries, in the registry's order. */
export function catalogOf(infos: readonly NodeInfo[]): NodeCatalog {
  const byType = new Map(infos.map((info) => [info.type, info]));
  return {
    get: (type) => byType.get(type),
    all: () => [...infos],
  };
}

/**
 * The domain of the runs a trigger node starts: its `entityDomain`, except that a schedule with
 * an audience starts one run per customer. `null` for a node that is not a known trigger.
 */
export function effectiveDomainIn(
  nodes: NodeLookup,
  triggerNode: { type: string; params?: unknown },
): TriggerDomain | null {
  const definition = nodes.get(triggerNode.type);
  if (!definition || definition.category !== "trigger") return null;
  if (definition.type === "auto.trigger.schedule") {
    const params = triggerNode.params;
    const audience =
      typeof params === "object" && params !== null
        ? (params as Record<string, unknown>).audience
        : undefined;
    return audience !== undefined && audience !== null ? "customer" : "schedule";
  }
  return definition.entityDomain ?? null;
}

/**
 * How a node's out handles read on the canvas and in sentences: "Timed out", not `timed_out`.
 * The names stay what graphs store (SPEC §2); only what the merchant sees is a label.
 */
const HANDLE_LABELS: Record<string, string> = {
  out: "Next",
  true: "True",
  false: "False",
  approved: "Approved",
  rejected: "Rejected",
  received: "Received",
  timed_out: "Timed out",
};

/** An out handle's label: "Timed out" for `timed_out`; a name not known here is spelt out ("Maybe"). */
export function handleLabel(handle: string): string {
  if (Object.hasOwn(HANDLE_LABELS, handle)) return HANDLE_LABELS[handle]!;
  const words = handle.replace(/[_-]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * A node's out handles: its type's `handles.out`, or for a type whose outs its params name
 * (`outFrom`, a Split) the ids of its branches as stored. Empty for an unknown type.
 */
export function outHandles(info: Pick<NodeInfo, "handles"> | undefined, params: unknown): readonly string[] {
  if (!info) return [];
  return info.handles.outFrom === "branches" ? splitBranchIds(params) : info.handles.out;
}

/** An exit's label on a node: a Split's branch label ("Group B"), else `handleLabel`. */
export function exitLabel(
  info: Pick<NodeInfo, "handles"> | undefined,
  params: unknown,
  handle: string,
): string {
  return (
    (info?.handles.outFrom === "branches" ? splitBranchLabel(params, handle) : null) ?? handleLabel(handle)
  );
}
