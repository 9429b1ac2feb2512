import type { z } from "zod";
import { PURPOSE_MISSING } from "@/lib/consent/purpose";
import {
  effectiveDomain,
  hasRecord,
  registry as defaultRegistry,
  type Registry,
} from "@/lib/automations/nodes/registry";
import { aDomain } from "@/lib/automations/nodes/triggers/triggers";
import { exitLabel, outHandles } from "@/lib/automations/nodes/catalog";
import { outputsOf } from "./step-outputs";
import type { NodeDefinition, ReviewedStep, ServerFacts, TriggerDomain } from "@/lib/automations/nodes/types";
import { findCycles } from "@/lib/automations/graph/cycles";
import { reachableFrom, upstreamOf } from "@/lib/automations/graph/reachability";
import { graphSchema, type Graph, type GraphEdge } from "@/lib/automations/graph/schema";
import { templatedStrings } from "@/lib/automations/tokens/render";
import { checkTokens } from "./tokens-check";

/** What only the server knows about the shop's setup: the steps' `review` rules read it. */
export type { ServerFacts };

/**
 * A problem that keeps a flow from being published, as a sentence a merchant can act on, with the
 * node or connection to highlight.
 */
export interface ReadyIssue {
  nodeId?: string;
  edgeId?: string;
  message: string;
}

function sentence(text: string): string {
  return /[.!?…]$/.test(text) ? text : `${text}.`;
}

const EXPECTED: Record<string, string> = {
  string: "text",
  number: "a number",
  boolean: "true or false",
  array: "a list",
  object: "an object",
  record: "an object",
};

/** zod's own wording for a wrong type or an extra key, said plainly. */
function plain(issue: z.core.$ZodIssue): string {
  if (issue.code === "invalid_type") {
    return /received undefined$/.test(issue.message)
      ? "is required"
      : `must be ${EXPECTED[issue.expected] ?? issue.expected}`;
  }
  if (issue.code === "unrecognized_keys") {
    return `${issue.keys.map((key) => `'${key}'`).join(", ")} ${issue.keys.length === 1 ? "is" : "are"} not part of a flow`;
  }
  return issue.message;
}

/** A shape problem, named by its path: "nodes.2.id: use letters, digits, dashes or underscores." */
function schemaIssue(issue: z.core.$ZodIssue, input: unknown): ReadyIssue {
  const path = issue.path.map(String).join(".");
  const message = plain(issue);
  const result: ReadyIssue = { message: sentence(path ? `${path}: ${message}` : message) };
  const [collection, index] = issue.path;
  if ((collection === "nodes" || collection === "edges") && typeof index === "number") {
    const item = readItem(input, collection, index);
    if (item) result[collection === "nodes" ? "nodeId" : "edgeId"] = item;
  }
  return result;
}

/** The id of the node or edge an issue is about, when the broken input still has a usable one. */
function readItem(input: unknown, collection: "nodes" | "edges", index: number): string | undefined {
  if (typeof input !== "object" || input === null) return undefined;
  const list = (input as Record<string, unknown>)[collection];
  if (!Array.isArray(list)) return undefined;
  const item: unknown = list[index];
  if (typeof item !== "object" || item === null) return undefined;
  const id = (item as Record<string, unknown>).id;
  return typeof id === "string" && id.length > 0 ? id : undefined;
}

/** "This condition checks a record, but a webhook run has none." */
function noRecord(subject: string, domain: TriggerDomain): string {
  switch (domain) {
    case "webhook":
      return `${subject} a record, but a webhook run has none.`;
    case "schedule":
      return `${subject} a record, but a schedule without an audience has none; add an audience to run once for each customer.`;
    case "later":
      return `${subject} a record, but a run started by a later step has none.`;
    default:
      return `${subject} a record, but runs of this trigger have none.`;
  }
}

/** A node as read here: its definition and its parsed params (`null` while they are invalid). */
type Known = ReviewedStep;

/** The sentence on a node, or its label while its params are invalid. */
function summarise(registry: Registry, node: { type: string; params?: unknown }): string {
  const definition = registry.get(node.type);
  if (!definition) return node.type;
  const parsed = definition.params.safeParse(node.params ?? {});
  return parsed.success ? definition.summarise(parsed.data) : definition.label;
}

/**
 * Every problem with a graph, in one pass, as ready issues; `[]` means it can be published. Pure
 * and browser-safe: the editor runs it on every change, the server before every publish.
 * `registry` is the app's unless a test brings node kinds the catalog does not have yet; `facts`
 * are the server's (the editor is handed them with its first paint).
 */
export function validate(
  input: unknown,
  registry: Registry = defaultRegistry,
  facts: ServerFacts = {},
): ReadyIssue[] {
  const parsed = graphSchema.safeParse(input);
  if (!parsed.success) return parsed.error.issues.map((issue) => schemaIssue(issue, input));
  const graph: Graph = parsed.data;
  const issues: ReadyIssue[] = [];
  const nodes = new Map(graph.nodes.map((node) => [node.id, node]));

  // Types and params.
  const known = new Map<string, Known>();
  for (const node of graph.nodes) {
    const definition = registry.get(node.type);
    if (!definition) {
      issues.push({ nodeId: node.id, message: `'${node.type}' is not a step Tillflow knows.` });
      continue;
    }
    const result = definition.params.safeParse(node.params);
    if (result.success) {
      known.set(node.id, { node, definition, params: result.data as Record<string, unknown> });
      for (const message of definition.check?.(result.data) ?? []) issues.push({ nodeId: node.id, message });
    } else {
      known.set(node.id, { node, definition, params: null });
      for (const problem of result.error.issues) {
        const path = problem.path.map(String).join(".");
        issues.push({
          nodeId: node.id,
          message: sentence(`${definition.label}: ${path ? `${path} ` : ""}${problem.message}`),
        });
      }
    }
  }

  // Connections. Only sound ones count towards reachability and "leads nowhere" below.
  const sound: GraphEdge[] = [];
  for (const edge of graph.edges) {
    const source = nodes.get(edge.source);
    const target = nodes.get(edge.target);
    if (!source) {
      issues.push({
        edgeId: edge.id,
        message: `This connection starts at '${edge.source}', which is not a step of this flow.`,
      });
    }
    if (!target) {
      issues.push({
        edgeId: edge.id,
        message: `This connection leads to '${edge.target}', which is not a step of this flow.`,
      });
    }
    if (!source || !target) continue;
    const from = known.get(source.id)?.definition;
    const to = known.get(target.id)?.definition;
    let ok = true;
    if (from && !outHandles(from, source.params).includes(edge.sourceHandle)) {
      ok = false;
      issues.push({
        edgeId: edge.id,
        message:
          from.category === "condition"
            ? `Condition '${summarise(registry, source)}' has no '${edge.sourceHandle}' exit.`
            : `'${from.label}' has no '${edge.sourceHandle}' exit.`,
      });
    }
    if (to && (to.category === "trigger" || !to.handles.in)) {
      ok = false;
      issues.push({ edgeId: edge.id, message: "A trigger starts the flow, so nothing can lead into it." });
    }
    if (ok) sound.push(edge);
  }
  const soundGraph: Graph = { nodes: graph.nodes, edges: sound };

  // Triggers.
  const triggers = [...known.values()].filter((k) => k.definition.category === "trigger");
  if (triggers.length === 0) issues.push({ message: "Add a trigger: a flow starts with one." });
  for (const trigger of triggers) {
    if (!sound.some((edge) => edge.source === trigger.node.id)) {
      issues.push({ nodeId: trigger.node.id, message: "Add a step after this trigger: it leads nowhere." });
    }
  }

  // What each step says of itself against the rest of the flow and the shop's setup (its
  // definition's `review`: a Later step needs its trigger, an AI step a model, an HTTP step's
  // credential its host, an approval the people it asks).
  const flow = { steps: [...known.values()], facts };
  for (const step of flow.steps)
    for (const message of step.definition.review?.(step, flow) ?? [])
      issues.push({ nodeId: step.node.id, message });

  // Cycles: a run must end, so a step may not lead back to itself.
  for (const cycle of findCycles(soundGraph)) {
    const [first, ...rest] = cycle;
    if (first === undefined) continue;
    const through =
      rest.length > 0
        ? rest.map((id) => `'${summarise(registry, nodes.get(id) ?? { type: id })}'`).join(", ")
        : "its own exit";
    issues.push({ nodeId: first, message: `This step loops back to itself through ${through}.` });
  }

  // Reachability, per trigger: domain checks use each trigger a node hangs under.
  const reachByTrigger = new Map(triggers.map((t) => [t.node.id, reachableFrom(soundGraph, t.node.id)]));
  const reachable = new Set<string>();
  for (const set of reachByTrigger.values()) for (const id of set) reachable.add(id);

  for (const node of graph.nodes) {
    const entry = known.get(node.id);
    if (entry?.definition.category === "trigger") continue;
    if (!reachable.has(node.id)) {
      issues.push({ nodeId: node.id, message: "This step is not connected to a trigger." });
      continue;
    }
    if (entry && registry.isSplit(entry.definition)) {
      // Every branch needs a step: a customer sent down an empty branch would get nothing.
      const exits = new Set(sound.filter((edge) => edge.source === node.id).map((edge) => edge.sourceHandle));
      for (const handle of outHandles(entry.definition, node.params))
        if (!exits.has(handle))
          issues.push({
            nodeId: node.id,
            message: `'${exitLabel(entry.definition, node.params, handle)}' leads nowhere: connect it to a step.`,
          });
    } else if (entry?.definition.category === "condition") {
      const exits = new Set(sound.filter((edge) => edge.source === node.id).map((edge) => edge.sourceHandle));
      if (!exits.has("true") && !exits.has("false")) {
        issues.push({ nodeId: node.id, message: "This condition leads nowhere." });
      }
    }
    // A wait only defers what follows it; with nothing after it the run would pause for nothing.
    if (entry?.definition.category === "wait" && !sound.some((edge) => edge.source === node.id)) {
      issues.push({ nodeId: node.id, message: "This wait leads nowhere." });
    }
  }

  // A step that reaches customers says what it is for (lib/consent/purpose.ts): one saved before
  // purposes sends as it always did, and its next publish asks.
  if (facts.askPurpose)
    for (const { node, definition, params } of known.values())
      if (params && definition.customerFacing?.(params) && params.purpose === undefined)
        issues.push({ nodeId: node.id, message: PURPOSE_MISSING });

  // Domains and tokens.
  for (const entry of known.values()) {
    const { node, definition, params } = entry;
    if (definition.category === "trigger") continue;
    const domains = new Set<TriggerDomain>();
    for (const trigger of triggers) {
      if (!reachByTrigger.get(trigger.node.id)?.has(node.id)) continue;
      const domain = effectiveDomain(trigger.node) ?? trigger.definition.entityDomain ?? null;
      if (domain) domains.add(domain);
    }

    const messages = new Set<string>();
    if (params !== null) {
      for (const domain of domains) {
        for (const message of domainIssues(definition, params, domain)) messages.add(message);
      }
    }

    const upstream = upstreamOf(soundGraph, node.id);
    for (const id of upstream) if (!reachable.has(id)) upstream.delete(id);
    const upstreamOutputs = outputsOf(graph, upstream);
    // Tokens are checked even while another param is invalid (an email with no body yet), so every
    // problem shows at once; the strings are read from the params as written.
    const strings = templatedStrings(params ?? asRecord(node.params), definition.templated);
    // Tokens the step reads elsewhere (a condition on `steps.code1.score`) are checked as these are.
    strings.push(...(definition.readsTokens?.(asRecord(node.params)) ?? []));
    // An unconnected step has no trigger to check `{entity.…}` against; its other tokens still are.
    const tokenDomains: (TriggerDomain | null)[] = domains.size > 0 ? [...domains] : [null];
    for (const { param, text } of strings) {
      for (const domain of tokenDomains) {
        for (const problem of checkTokens(text, { domain, upstreamNodeIds: upstream, upstreamOutputs })) {
          messages.add(`${definition.label}, ${param}: ${problem}`);
        }
      }
    }
    for (const message of messages) issues.push({ nodeId: node.id, message });
  }

  return issues;
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/** What is wrong with a node under a trigger of `domain`. */
function domainIssues(
  definition: NodeDefinition,
  params: Record<string, unknown>,
  domain: TriggerDomain,
): string[] {
  // A wait has no effect and reads nothing: it is legal under every trigger, with or without a
  // record — but what the wait itself says (a wait for an event about "the same record").
  if (definition.category === "wait") return definition.domainIssues?.(params, domain) ?? [];
  // A split needs no record: without one it divides by the event that started the run.
  if (defaultRegistry.isSplit(definition)) return [];
  // A condition reads the record unless it says otherwise (one on an earlier step's output).
  if (definition.category === "condition") {
    if (!hasRecord(domain))
      return definition.needsRecord?.(params) === false ? [] : [noRecord("This condition checks", domain)];
    return definition.domainIssues?.(params, domain) ?? [];
  }
  if (definition.entityDomain && definition.entityDomain !== domain) {
    return [
      `${definition.label} works on ${aDomain(definition.entityDomain)}, but this flow starts from ${aDomain(domain)}.`,
    ];
  }
  if (definition.needsRecord?.(params) && !hasRecord(domain)) {
    return [noRecord(`${definition.label} needs`, domain)];
  }
  return definition.domainIssues?.(params, domain) ?? [];
}
