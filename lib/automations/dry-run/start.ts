import type { Caller } from "@/lib/identity/caller";
import { hasRole } from "@/lib/identity/roles";
import { getDb } from "@/lib/db/client";
import type { RunEvent } from "@/lib/db/schema";
import { AppError, forbidden, notFound } from "@/lib/errors";
import { DOMAIN_LABELS, type Domain } from "@/lib/domains/domains";
import { entityName } from "@/lib/domains/labels";
import { parseEntityId } from "@/lib/entities/service";
import { EntityNotFoundError, loadRunEntity } from "@/lib/automations/engine/entity";
import { toRunEvent } from "@/lib/automations/engine/start/plan";
import { triggerPayload } from "@/lib/automations/engine/trigger-payload";
import { graphSchema, type Graph, type GraphNode } from "@/lib/automations/graph/schema";
import { validate } from "@/lib/automations/review/validate";
import type { RunEntity } from "@/lib/automations/nodes/context";
import {
  effectiveDomain,
  hasRecord,
  registry,
  summariseNode,
  triggerMatches,
} from "@/lib/automations/nodes/registry";
import type { NodeDefinition, TriggerDomain } from "@/lib/automations/nodes/types";
import { assertGraphSize } from "@/lib/automations/lifecycle/guards";
import { excerpt } from "./describe";
import type { DryRunStep } from "./result";

/**
 * Where a dry run starts: the graph it may try, then the run it stands for — the first trigger,
 * the event, and the record as a run would load it — with notes where the dry run has to guess.
 */

export const DRY_RUN_ID = "dry-run";

/** The run a dry run stands for, as its first leg would start. */
export interface DryRunStart {
  graph: Graph;
  trigger: GraphNode;
  definition: NodeDefinition;
  domain: TriggerDomain | null;
  /** When the first leg runs: now. A resumed leg runs when its wait ends. */
  now: Date;
  event: RunEvent;
  /** The record as it is now, which a resumed leg reads. */
  current: RunEntity | null;
  /** The record as the first leg reads it: its status pinned to the one the event fired for. */
  pinned: RunEntity | null;
  /** How the steps name the record ("order #1001"). */
  subject: string;
}

/**
 * The graph to try: shape and size checked, refused with every ready issue when it has any, and
 * with a code step only for editors (its script runs on our servers).
 */
export function graphToTry(caller: Caller, input: unknown): Graph {
  assertGraphSize(input);
  const issues = validate(input);
  if (issues.length > 0) {
    const [first] = issues;
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : "";
    throw new AppError(
      422,
      "invalid",
      `Fix this flow before trying it: ${first!.message}${more}`,
      issues.map((issue) => ({ nodeId: issue.nodeId, edgeId: issue.edgeId, message: issue.message })),
    );
  }
  const graph = graphSchema.parse(input);
  if (
    !hasRole(caller.role, "editor") &&
    graph.nodes.some((node) => registry.get(node.type)?.dryRunNeedsEditor)
  ) {
    throw forbidden(
      "A dry run of a flow with a code step runs its script, so it needs the editor role. Ask an admin for the editor role.",
    );
  }
  return graph;
}

function statusOf(entity: RunEntity | null): string | null {
  return typeof entity?.data.status === "string" ? entity.data.status : null;
}

/** The record the run would be about, as the engine loads it: by id, in the caller's shop. */
async function loadEntity(
  tenantId: string,
  domain: Domain,
  rawId: string,
  event: RunEvent,
  pinStatus: boolean,
) {
  const id = parseEntityId(rawId);
  try {
    return await loadRunEntity(getDb(), tenantId, { ...event, entityId: id }, { pinStatus });
  } catch (error) {
    if (error instanceof EntityNotFoundError) throw notFound(`The ${DOMAIN_LABELS[domain].one} '${id}'`);
    throw error;
  }
}

/**
 * The run the dry run stands for: from the first trigger (validation guarantees one of a known
 * type), about the chosen record or the pasted payload. What it cannot be sure of goes to `notes`.
 */
export async function startOf(
  caller: Caller,
  graph: Graph,
  input: { entityId?: string; payload?: Record<string, unknown> },
  notes: string[],
): Promise<DryRunStart> {
  const tenantId = caller.tenant.id;
  const triggers = graph.nodes.filter((node) => registry.get(node.type)?.category === "trigger");
  const trigger = triggers[0]!;
  const definition = registry.get(trigger.type)!;
  if (triggers.length > 1) {
    notes.push(
      `This flow has ${triggers.length} triggers; the dry run starts from the first, '${definition.label}'.`,
    );
  }
  const domain = effectiveDomain(trigger);
  const now = new Date();
  const eventBase = {
    id: DRY_RUN_ID,
    type: definition.event ?? "dry_run",
    domain: domain ?? "webhook",
    entityId: null,
    payload: {},
    createdAt: now,
    inserted: true,
  };

  // The record, as it is now (what a resumed leg sees) and as the first leg sees it (status pinned).
  let current: RunEntity | null = null;
  if (input.entityId !== undefined && hasRecord(domain)) {
    current = await loadEntity(tenantId, domain, input.entityId, toRunEvent(eventBase), false);
  } else if (input.entityId !== undefined) {
    notes.push(
      `Runs of this trigger are not about a stored record, so the record '${input.entityId}' was not used.`,
    );
  }
  const payload = input.payload ?? triggerPayload(trigger, current);
  const event: RunEvent = toRunEvent({ ...eventBase, entityId: current?.id ?? null, payload });
  const pinned =
    current && hasRecord(domain) ? await loadEntity(tenantId, domain, current.id, event, true) : null;

  if (hasRecord(domain) && !current) {
    const one = DOMAIN_LABELS[domain].one;
    notes.push(
      `No ${one} was chosen, so conditions see no record and {entity.…} tokens come out empty. Choose one to try the flow on real data.`,
    );
  }
  if (pinned && current && statusOf(pinned) !== statusOf(current)) {
    notes.push(
      `The ${DOMAIN_LABELS[pinned.domain].one}'s status is taken as '${statusOf(pinned)}', the status '${definition.label}' fires for; it is '${statusOf(current)}' now.`,
    );
  }
  if (!triggerMatches(definition, trigger.params, { type: event.type, payload: event.payload })) {
    notes.push(
      `A real ${event.type} event with this payload would not start '${summariseNode(trigger)}'; the dry run goes on as if it had.`,
    );
  }

  const subject = pinned
    ? entityName(pinned.domain, pinned.id, pinned.data)
    : hasRecord(domain)
      ? `the ${DOMAIN_LABELS[domain].one} this run is about`
      : "the run's record";
  return { graph, trigger, definition, domain, now, event, current, pinned, subject };
}

/** The trigger's step: the run starts, for the record or without one, with the event's payload. */
export function triggerStep(start: DryRunStart): DryRunStep {
  const { trigger, definition, pinned, subject, event } = start;
  return {
    nodeId: trigger.id,
    nodeType: trigger.type,
    label: definition.label,
    leg: 1,
    kind: "trigger",
    outcome: "started",
    summary: summariseNode(trigger),
    detail: [
      pinned ? `Started for ${subject}.` : "Started without a record.",
      `The ${event.type} event carries ${excerpt(JSON.stringify(event.payload), 300)}.`,
    ],
  };
}
