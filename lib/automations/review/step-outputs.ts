import type { Graph } from "@/lib/automations/graph/schema";
import { registry } from "@/lib/automations/nodes/registry";
import { declaredOutput } from "@/lib/automations/nodes/outputs";
import type { StepOutput } from "@/lib/automations/nodes/types";

/**
 * What the steps of a graph declare they hand on (`NodeDefinition.outputs`), read the same way by
 * the ready issues, the token check under a field and the token picker. Pure, browser-safe.
 * `undefined`: the step's kind declares nothing (a wait, a trigger: not checked past "runs
 * before"); `[]`: it hands nothing on.
 */

export type DeclaredOutputs = readonly StepOutput[] | undefined;

/** What `node` declares it hands on, with its params as written (or its defaults while they do not parse). */
export function declaredOutputs(node: { type: string; params?: unknown }): DeclaredOutputs {
  const definition = registry.get(node.type);
  if (!definition?.outputs) return undefined;
  const parsed = definition.params.safeParse(node.params ?? {});
  try {
    return definition.outputs(parsed.success ? parsed.data : definition.defaultParams());
  } catch {
    return undefined;
  }
}

/** The declared outputs of the graph's nodes among `ids`, by node id. */
export function outputsOf(graph: Graph, ids: ReadonlySet<string>): Map<string, DeclaredOutputs> {
  return new Map(
    graph.nodes.filter((node) => ids.has(node.id)).map((node) => [node.id, declaredOutputs(node)]),
  );
}

/** `{steps.h.status}`, `{steps.h.body.…}`: a declared output as the merchant would write it. */
export function outputToken(nodeId: string, path: string): string {
  if (path === "*") return `{steps.${nodeId}.…}`;
  return `{steps.${nodeId}.${path.replace(/\.\*$/, ".…")}}`;
}

/**
 * What is wrong with reading `rest` (the path after the step id) of step `nodeId`, which declares
 * `outputs`: the step hands nothing on, or not this. Null when the read is one it declares (or it
 * declares nothing to check against).
 */
export function stepReadProblem(
  written: string,
  nodeId: string,
  rest: readonly string[],
  outputs: DeclaredOutputs,
): string | null {
  if (outputs === undefined) return null;
  if (outputs.length === 0) return `${written} reads step '${nodeId}', which hands nothing on.`;
  if (declaredOutput(outputs, rest.join("."))) return null;
  const offered = outputs.map((output) => outputToken(nodeId, output.path));
  return `${written} is not something step '${nodeId}' hands on; it hands on ${offered.join(", ")}.`;
}
