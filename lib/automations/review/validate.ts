import type { z } from "zod";
import { PURPOSE_MISSING } from "@/lib/consent/purpose";
import {
  DOMAIN_CHECKS,
  effectiveDomain,
  hasRecord,
  PARAMS_CHECKS,
  RECORD_ACTIONS,
  registry as defaultRegistry,
  type NodeType,
  type Registry,
} from "@/lib/automations/nodes/registry";
import { aDomain } from "@/lib/automations/nodes/triggers";
import { exitLabel, outHandles } from "@/lib/automations/nodes/catalog";
import { readsStepOutput } from "@/lib/automations/nodes/conditions/field";
import { outputsOf } from "./step-outputs";
import type { NodeDefinition, TriggerDomain } from "@/lib/automations/nodes/types";
import { AI_NOT_SET_UP } from "@/lib/automations/nodes/actions/ai";
import { bareHost, hostAllowed, typedHost, whereItMayGo } from "@/lib/credentials/hosts";
import { findCycles } from "@/lib/automations/graph/cycles";
import { reachableFrom, upstreamOf } from "@/lib/automations/graph/reachability";
import { graphSchema, type Graph, type GraphEdge, type GraphNode } from "@/lib/automations/graph/schema";
import { templatedStrings } from "@/lib/automations/tokens/render";
import { checkTokens } from "./tokens-check";

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

interface Known {
  node: GraphNode;
  definition: NodeDefinition;
  /** The parsed params (defaults filled in), or `null` when they are invalid. */
  params: Record<string, unknown> | null;
}

/** The sentence on a node, or its label while its params are invalid. */
function summarise(registry: Registry, node: { type: string; params?: unknown }): string {
  const definition = registry.get(node.type);
  if (!definition) return node.type;
  const parsed = definition.params.safeParse(node.params ?? {});
  return parsed.success ? definition.summarise(parsed.data) : definition.label;
}

/**
 * What only the server knows about the shop's setup, which some steps need (`lifecycle/server-facts.ts`
 * reads them). Left out — as in a test, or the browser before the server said — nothing is
 * assumed: no issue is raised for it.
 */
export interface ServerFacts {
  /** An AI model is set up (AI_BASE_URL and AI_MODEL): the AI step can ask it. */
  aiConfigured?: boolean;
  /**
   * The shop's HTTP credentials' names and allowed hosts, by id: an HTTP step that would send one
   * to a host outside its list is a ready issue (a run would refuse it anyway).
   */
  credentialHosts?: Record<string, { name: string; allowedHosts: readonly string[] }>;
  /**
   * A customer-facing step with no purpose chosen (saved before purposes) is a ready issue: set by
   * the editor and publishing (`serverFacts`), not by a dry run, which tries an old flow as it runs.
   */
  askPurpose?: boolean;
  /**
   * The shop's teams (name and size, by id) and how many could vote as an editor (editors and
   * admins) or an admin: an Approval step asking an unknown team, or more people than could ever
   * vote, is a ready issue (it could only be rejected as "can no longer be approved").
   */
  approvers?: {
    teams: Record<string, { name: string; size: number }>;
    people: { editor: number; admin: number };
  };
}

const peopleWord = (n: number) => (n === 1 ? "1 person" : `${n} people`);

/** The issues of an Approval step's approver rules against the shop's teams and staff. */
function approverIssues(node: GraphNode, facts: ServerFacts): string[] {
  if (node.type !== "auto.control.approval" || !facts.approvers) return [];
  const rules = (node.params as Record<string, unknown> | undefined)?.approvers;
  if (!Array.isArray(rules)) return [];
  const { teams, people } = facts.approvers;
  return rules.flatMap((rule: unknown): string[] => {
    if (typeof rule !== "object" || rule === null) return [];
    const { team, role, required } = rule as Record<string, unknown>;
    if (typeof required !== "number") return [];
    if (typeof team === "string") {
      const known = teams[team];
      if (!known)
        return [
          "This approval asks a team the shop does not have (deleted, or from another shop): choose one of Settings → Teams.",
        ];
      return required > known.size
        ? [
            `This approval asks ${required} from ${known.name}, but ${known.name} has ${peopleWord(known.size)}: it could never be approved.`,
          ]
        : [];
    }
    if (role === "admin" || role === "editor") {
      const could = people[role];
      const who = role === "admin" ? "admins" : "editors or admins";
      return required > could
        ? [`This approval asks ${required} ${who}, but the shop has ${could}: it could never be approved.`]
        : [];
    }
    return [];
  });
}

/** The issue of an HTTP step whose typed URL's host its credential may not be sent to, or null. */
function credentialHostIssue(node: GraphNode, facts: ServerFacts): string | null {
  if (node.type !== "auto.action.http_request" || !facts.credentialHosts) return null;
  const auth = asRecord(node.params.auth);
  const credential =
    typeof auth.credentialId === "string" ? facts.credentialHosts[auth.credentialId] : undefined;
  const host = typedHost(node.params.url);
  if (!credential || host === null || hostAllowed(credential.allowedHosts, host)) return null;
  return `This step would send the credential '${credential.name}' to ${bareHost(host)}, but ${whereItMayGo(credential.allowedHosts)}: choose another credential, or ask an admin to add the host in Settings → Credentials.`;
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
      const check = Object.hasOwn(PARAMS_CHECKS, node.type)
        ? PARAMS_CHECKS[node.type as NodeType]
        : undefined;
      for (const message of check ? check(result.data) : []) issues.push({ nodeId: node.id, message });
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
  const laterSteps = new Map<string, string>();
  for (const trigger of triggers) {
    if (!sound.some((edge) => edge.source === trigger.node.id)) {
      issues.push({ nodeId: trigger.node.id, message: "Add a step after this trigger: it leads nowhere." });
    }
    const step = trigger.node.type === "auto.trigger.later" ? trigger.params?.step : undefined;
    if (typeof step === "string") {
      if (laterSteps.has(step)) {
        issues.push({
          nodeId: trigger.node.id,
          message: `Another trigger already starts when the later step '${step}' comes due; give each a different name.`,
        });
      } else laterSteps.set(step, trigger.node.id);
    }
  }

  // A later step needs a Later trigger of the same name to start its run.
  for (const { node, params } of known.values()) {
    if (node.type !== "auto.action.later" || typeof params?.step !== "string") continue;
    if (!laterSteps.has(params.step)) {
      issues.push({
        nodeId: node.id,
        message: `No Later trigger in this flow starts at step '${params.step}'; add one with that name.`,
      });
    }
  }

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

  // Steps that need something the shop has not set up.
  if (facts.aiConfigured === false)
    for (const { node } of known.values())
      if (node.type === "auto.action.ai") issues.push({ nodeId: node.id, message: AI_NOT_SET_UP });
  for (const { node } of known.values()) {
    const message = credentialHostIssue(node, facts);
    if (message) issues.push({ nodeId: node.id, message });
    for (const issue of approverIssues(node, facts)) issues.push({ nodeId: node.id, message: issue });
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
    // A condition on an earlier step's output (`steps.code1.score`) is checked as that token is.
    const path = asRecord(node.params).path;
    if (definition.type === "auto.condition.field" && typeof path === "string" && readsStepOutput(path))
      strings.push({ param: "field", text: `{${path}}` });
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
  // record — but a wait for an event about "the same record" needs one.
  if (definition.category === "wait") return sameRecordIssues(definition, params, domain);
  // A split needs no record: without one it divides by the event that started the run.
  if (defaultRegistry.isSplit(definition)) return [];
  if (definition.category === "condition") {
    if (!hasRecord(domain))
      return readsStepOutput(String(params.path ?? "")) ? [] : [noRecord("This condition checks", domain)];
    const check = Object.hasOwn(DOMAIN_CHECKS, definition.type)
      ? DOMAIN_CHECKS[definition.type as NodeType]
      : undefined;
    return check ? check(params, domain) : [];
  }
  if (definition.entityDomain && definition.entityDomain !== domain) {
    return [
      `${definition.label} works on ${aDomain(definition.entityDomain)}, but this flow starts from ${aDomain(domain)}.`,
    ];
  }
  if (RECORD_ACTIONS.has(definition.type) && !hasRecord(domain)) {
    return [noRecord(`${definition.label} needs`, domain)];
  }
  return [];
}

/** A wait for an event about the run's record, under a trigger whose runs have none. */
function sameRecordIssues(
  definition: NodeDefinition,
  params: Record<string, unknown>,
  domain: TriggerDomain,
): string[] {
  if (definition.type !== "auto.control.wait_for_event" || hasRecord(domain)) return [];
  if (asRecord(params.match).kind !== "same_record") return [];
  const none =
    domain === "webhook"
      ? "a webhook run has none"
      : domain === "schedule"
        ? "a schedule without an audience has none"
        : domain === "later"
          ? "a run started by a later step has none"
          : "runs of this trigger have none";
  return [
    `This wait listens for an event about the run's record, but ${none}: match a field of the event instead (“A field of the event equals a value”).`,
  ];
}
