import type { Graph, GraphEdge, GraphNode } from "@/lib/automations/graph/schema";
import type { Registry } from "@/lib/automations/nodes/registry";
import type { ConditionDefinition, SplitChoice, SplitDefinition } from "@/lib/automations/nodes/types";
import { outHandles } from "@/lib/automations/nodes/catalog";

/**
 * The interpreter: which steps one leg of a run takes. Pure, no I/O: the caller supplies how a
 * condition evaluates, and executes the plan.
 *
 * A walk starts at a node (the trigger for the first leg, the wait for a resumed leg) and goes
 * breadth-first. A condition is evaluated and only its `true` or `false` exit is followed (a split:
 * the one branch its subject takes); an
 * action is planned and its exits followed; a wait is planned but the walk stops there unless
 * the wait is where it started. So a leg ends at every wait it meets, and the leg that resumes
 * the wait plans what follows it. A branch without a wait runs fully even while a sibling waits.
 *
 *   trigger ──▶ add_tag ──▶ wait ──▶ send_email      leg 1: add_tag, wait
 *                                                    leg 2 (from wait): send_email
 *
 * A code step or an HTTP action (`planAfterRun`) is planned, but what follows it is walked only
 * once it has run (`planFrom` again from the step, with `planned`): a condition after it reads
 * what it returned.
 */

export const MAX_PLANNED_STEPS = 500;
/** Why a run that hits the step guard stops (SPEC §2 "Guards": at most 500 steps per run). */
export const STEP_LIMIT_REASON = `This run would take more than ${MAX_PLANNED_STEPS} steps, the limit for one run, so it was stopped.`;

export type PlannedStep =
  | {
      kind: "condition";
      nodeId: string;
      nodeType: string;
      result: boolean;
      /** Why it could not be decided (it read the cut part of an output): neither branch is taken. */
      error?: string;
    }
  | {
      kind: "split";
      nodeId: string;
      nodeType: string;
      /** The branch taken: the step's output. Null when it could not be chosen (`error` says why). */
      choice: SplitChoice | null;
      error?: string;
    }
  | { kind: "action"; nodeId: string; nodeType: string; params: Record<string, unknown> }
  | { kind: "wait"; nodeId: string; nodeType: string; params: Record<string, unknown> };

/**
 * A condition's result as the caller evaluates it. It may throw `UndecidedConditionError` (it
 * read the cut part of an earlier output): its step fails with the message and no branch follows.
 */
export interface Evaluate {
  (node: GraphNode, definition: ConditionDefinition): boolean;
  /**
   * The branch a split takes for the run's subject (`evaluate.ts`: a stable hash of automation,
   * step and subject). It throws `UndecidedConditionError` when none can be chosen; absent, a
   * split cannot be decided and takes no branch.
   */
  split?: (node: GraphNode, definition: SplitDefinition) => SplitChoice;
}

export class UndecidedConditionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UndecidedConditionError";
  }
}

export interface PlanOptions {
  /**
   * Follow only this exit of the start node (a decision that resumes an approval follows
   * `approved` or `rejected`). By default every exit of the start node is followed.
   */
  startHandle?: string;
  /** Plan the start node itself too (a retry re-runs the action it starts from). */
  includeStart?: boolean;
  /** Nodes this leg has planned already (the rest of a walk a code step paused): never planned twice. */
  planned?: ReadonlySet<string>;
}

function outgoing(graph: Graph): Map<string, GraphEdge[]> {
  const bySource = new Map<string, GraphEdge[]>();
  for (const edge of graph.edges) {
    const list = bySource.get(edge.source);
    if (list) list.push(edge);
    else bySource.set(edge.source, [edge]);
  }
  return bySource;
}

/** A leg's walk: the steps it takes, in order, and the connections it follows to them. */
export interface Walk {
  steps: PlannedStep[];
  /** Ids of the edges followed into planned steps (a diamond's two edges both count). */
  edgeIds: string[];
}

/** The steps one leg takes from `startNodeId` (not itself a step of the plan), in order. */
export function planFrom(
  graph: Graph,
  startNodeId: string,
  registry: Registry,
  evaluate: Evaluate,
  options: PlanOptions = {},
): PlannedStep[] {
  return walkFrom(graph, startNodeId, registry, evaluate, options).steps;
}

/** `planFrom`, also saying which connections the walk took (the dry run lights them). */
export function walkFrom(
  graph: Graph,
  startNodeId: string,
  registry: Registry,
  evaluate: Evaluate,
  options: PlanOptions = {},
): Walk {
  const nodes = new Map(graph.nodes.map((node) => [node.id, node]));
  const start = nodes.get(startNodeId);
  if (!start) return { steps: [], edgeIds: [] };
  const exits = outgoing(graph);
  const plan: PlannedStep[] = [];
  const followed: GraphEdge[] = [];
  // A node is planned once per walk, however many branches reach it (a diamond).
  const queued = new Set<string>([startNodeId, ...(options.planned ?? [])]);
  const queue: GraphNode[] = [start];

  const follow = (node: GraphNode, handles: readonly string[]) => {
    for (const edge of exits.get(node.id) ?? []) {
      if (!handles.includes(edge.sourceHandle)) continue;
      followed.push(edge);
      if (queued.has(edge.target)) continue;
      const target = nodes.get(edge.target);
      if (!target) continue;
      queued.add(edge.target);
      queue.push(target);
    }
  };
  const add = (step: PlannedStep) => {
    if (plan.length >= MAX_PLANNED_STEPS) {
      throw new Error(STEP_LIMIT_REASON);
    }
    plan.push(step);
  };

  for (let i = 0; i < queue.length; i++) {
    const node = queue[i] as GraphNode;
    const definition = registry.get(node.type);
    // An unknown type is a ready issue; a stored graph that has one just stops there.
    if (!definition) continue;
    if (node.id === startNodeId && !options.includeStart) {
      follow(node, options.startHandle ? [options.startHandle] : outHandles(definition, node.params));
      continue;
    }
    switch (definition.category) {
      case "condition": {
        if (registry.isSplit(definition)) {
          let choice: SplitChoice;
          try {
            if (!evaluate.split) throw new UndecidedConditionError("This split cannot be decided here.");
            choice = evaluate.split(node, definition);
          } catch (error) {
            if (!(error instanceof UndecidedConditionError)) throw error;
            add({ kind: "split", nodeId: node.id, nodeType: node.type, choice: null, error: error.message });
            break;
          }
          add({ kind: "split", nodeId: node.id, nodeType: node.type, choice });
          follow(node, [choice.branch]);
          break;
        }
        if (!registry.isCondition(definition)) break;
        let result: boolean;
        try {
          result = evaluate(node, definition);
        } catch (error) {
          if (!(error instanceof UndecidedConditionError)) throw error;
          add({
            kind: "condition",
            nodeId: node.id,
            nodeType: node.type,
            result: false,
            error: error.message,
          });
          break;
        }
        add({ kind: "condition", nodeId: node.id, nodeType: node.type, result });
        follow(node, [result ? "true" : "false"]);
        break;
      }
      case "action":
        add({ kind: "action", nodeId: node.id, nodeType: node.type, params: node.params });
        // What follows a code step is planned once it has run (its output can decide conditions).
        if (!definition.planAfterRun) follow(node, definition.handles.out);
        break;
      case "wait":
        // Planned, but what follows is the next leg's: the walk stops here.
        add({ kind: "wait", nodeId: node.id, nodeType: node.type, params: node.params });
        break;
      case "trigger":
        // Nothing may lead into a trigger (a ready issue); a stored graph that does stops here.
        break;
    }
  }
  const planned = new Set(plan.map((step) => step.nodeId));
  return { steps: plan, edgeIds: followed.filter((e) => planned.has(e.target)).map((e) => e.id) };
}

/** The first leg's steps: the walk from the first trigger node of `triggerType`; `[]` if there is none. */
export function planSteps(
  graph: Graph,
  triggerType: string,
  registry: Registry,
  evaluate: Evaluate,
): PlannedStep[] {
  const trigger = graph.nodes.find((node) => node.type === triggerType);
  return trigger ? planFrom(graph, trigger.id, registry, evaluate) : [];
}
