import { z } from "zod";
import type { Caller } from "@/lib/identity/caller";
import { hasRole } from "@/lib/identity/roles";
import { getDb } from "@/lib/db/client";
import type { RunEvent } from "@/lib/db/schema";
import { AppError, forbidden, notFound, parseOrThrow } from "@/lib/errors";
import { DOMAIN_LABELS, type Domain } from "@/lib/domains/domains";
import { readPath } from "@/lib/domains/fields";
import { entityLabel, entityName } from "@/lib/domains/labels";
import { parseEntityId } from "@/lib/entities/service";
import { describeAction, excerpt } from "./describe";
import { toRunEvent } from "@/lib/automations/engine/start";
import { EntityNotFoundError, loadRunEntity } from "@/lib/automations/engine/entity";
import type { RunEntity } from "@/lib/automations/nodes/context";
import { evaluatorFor } from "@/lib/automations/engine/evaluate";
import { followUpOf } from "@/lib/automations/engine/follow-up";
import { MAX_PLANNED_STEPS, walkFrom, type Walk } from "@/lib/automations/engine/interpreter";
import {
  actionContext,
  newLeg,
  redact,
  templateContext,
  type LegContext,
} from "@/lib/automations/engine/leg";
import { tokenRecord } from "@/lib/automations/nodes/context";
import { prepareAction, prepareWait } from "@/lib/automations/engine/prepare";
import { graphSchema, type Graph, type GraphNode } from "@/lib/automations/graph/schema";
import { findTokens, renderParams, templatedStrings } from "@/lib/automations/tokens/render";
import { reachableFrom } from "@/lib/automations/graph/reachability";
import { validate } from "@/lib/automations/review/validate";
import { triggerPayload } from "@/lib/automations/engine/trigger-payload";
import {
  effectiveDomain,
  hasRecord,
  registry,
  summariseNode,
  triggerMatches,
} from "@/lib/automations/nodes/registry";
import { readsStepOutput } from "@/lib/automations/nodes/conditions/field";
import { ActionError, type ActionOutput, type OutsideExecutor } from "@/lib/automations/nodes/executor";
import type { TriggerDomain } from "@/lib/automations/nodes/types";
import { assertGraphSize } from "@/lib/automations/lifecycle/guards";
import { getAutomation } from "@/lib/automations/lifecycle/read";

/**
 * The dry run ("try it now", seed 003): the leg pipeline in a mode that takes no effect. It walks
 * an automation's graph leg by leg against a real record or a pasted payload and says what each
 * step would do, writing nothing. Each stage is the pipeline's own: a leg context from `newLeg`,
 * the interpreter's walk (steps and the connections taken), the evaluator, and `prepareAction` /
 * `prepareWait` — so what it predicts, failures and their messages included, is what a run does.
 * Where it cannot know (an action's output, the record after a wait), it says so in `notes`.
 */

export const dryRunInput = z.strictObject({
  entityId: z.string().optional(),
  payload: z.record(z.string(), z.unknown()).optional(),
  graph: z.unknown().optional(),
});

export interface DryRunStep {
  nodeId: string;
  nodeType: string;
  label: string;
  leg: number;
  kind: "trigger" | "condition" | "action" | "wait";
  outcome: "started" | "true" | "false" | "would_run" | "would_wait" | "error";
  summary: string;
  detail: string[];
  resolvedParams?: Record<string, unknown>;
  /** An email the step would send, rendered as the recipient would get it (shown in a sandboxed frame). */
  email?: DryRunEmail;
  resumeAt?: string;
  error?: string;
}

export interface DryRunEmail {
  to: string;
  subject: string;
  /** The body as sent: tokens filled in (values HTML-escaped), line breaks as `<br>`. */
  html: string;
}

export interface DryRunResult {
  steps: DryRunStep[];
  path: { nodeIds: string[]; edgeIds: string[] };
  entity: { domain: string; id: string; label: string } | null;
  /**
   * The record as the first leg's `{entity.…}` tokens read it (an order with its customer), so the
   * editor can preview a field's tokens on it; null without a record.
   */
  tokenRecord?: Record<string, unknown> | null;
  /** The shop's time zone, which `{… | date}` writes days in. */
  timeZone?: string;
  notes: string[];
}

const DRY_RUN_ID = "dry-run";

/** The graph to try: shape and size checked, and refused with every ready issue when it has any. */
function readyGraph(input: unknown): Graph {
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
  return graphSchema.parse(input);
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

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** "in 2 days", "in 3 hours", "in 45 minutes". */
function fromNow(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  const [amount, unit] =
    minutes >= 2 * 1440
      ? [Math.round(minutes / 1440), "day"]
      : minutes >= 120
        ? [Math.round(minutes / 60), "hour"]
        : [minutes, "minute"];
  return `in ${amount} ${unit}${amount === 1 ? "" : "s"}`;
}

/** A leg still to walk: from the trigger or from a wait, at the time it would resume. */
interface PendingLeg {
  start: string;
  now: Date;
  /** The order it was met in, to break ties between waits that resume at the same time. */
  order: number;
  /** The wait step it continues, told which leg carries on from it once that is known. */
  waitStep?: DryRunStep;
  /** The one out to follow from `start`: an approval's, which a dry run takes as timed out. */
  startHandle?: string;
}

export async function dryRun(caller: Caller, automationId: string, body: unknown): Promise<DryRunResult> {
  const input = parseOrThrow(dryRunInput, body ?? {}, "The dry run is invalid");
  const tenantId = caller.tenant.id;
  const automation = await getAutomation(tenantId, automationId);
  const graph = readyGraph(input.graph === undefined ? automation.draftGraph : input.graph);
  if (!hasRole(caller.role, "editor") && graph.nodes.some((node) => node.type === "auto.action.code")) {
    throw forbidden(
      "A dry run of a flow with a code step runs its script, so it needs the editor role. Ask an admin for the editor role.",
    );
  }
  const notes: string[] = ["Nothing was saved or sent: this was a dry run."];

  // Validation guarantees a trigger of a known type.
  const triggers = graph.nodes.filter((node) => registry.get(node.type)?.category === "trigger");
  const trigger = triggers[0]!;
  const triggerDefinition = registry.get(trigger.type)!;
  if (triggers.length > 1) {
    notes.push(
      `This flow has ${triggers.length} triggers; the dry run starts from the first, '${triggerDefinition.label}'.`,
    );
  }
  const domain: TriggerDomain | null = effectiveDomain(trigger);
  const now = new Date();
  const eventBase = {
    id: DRY_RUN_ID,
    type: triggerDefinition.event ?? "dry_run",
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
      `The ${DOMAIN_LABELS[pinned.domain].one}'s status is taken as '${statusOf(pinned)}', the status '${triggerDefinition.label}' fires for; it is '${statusOf(current)}' now.`,
    );
  }
  if (!triggerMatches(triggerDefinition, trigger.params, { type: event.type, payload: event.payload })) {
    notes.push(
      `A real ${event.type} event with this payload would not start '${summariseNode(trigger)}'; the dry run goes on as if it had.`,
    );
  }

  const subject = pinned
    ? entityName(pinned.domain, pinned.id, pinned.data)
    : hasRecord(domain)
      ? `the ${DOMAIN_LABELS[domain].one} this run is about`
      : "the run's record";
  const steps: DryRunStep[] = [
    {
      nodeId: trigger.id,
      nodeType: trigger.type,
      label: triggerDefinition.label,
      leg: 1,
      kind: "trigger",
      outcome: "started",
      summary: summariseNode(trigger),
      detail: [
        pinned ? `Started for ${subject}.` : "Started without a record.",
        `The ${event.type} event carries ${excerpt(JSON.stringify(event.payload), 300)}.`,
      ],
    },
  ];
  const nodeIds = new Set<string>([trigger.id]);
  const edgeIds = new Set<string>();
  // Legs are numbered as a run numbers them: in the order its waits come due.
  const pendingLegs: PendingLeg[] = [{ start: trigger.id, now, order: 0 }];
  let met = 0;
  let legNumber = 0;
  let readsSteps = false;
  let approvals = 0;

  while (pendingLegs.length > 0) {
    pendingLegs.sort((a, b) => a.now.getTime() - b.now.getTime() || a.order - b.order);
    const pending = pendingLegs.shift()!;
    legNumber += 1;
    pending.waitStep?.detail.push(`Then leg ${legNumber} carries on from here.`);
    const leg = newLeg({
      tenantId,
      runId: DRY_RUN_ID,
      automationId: automation.id,
      automationName: automation.name,
      automationVersion: automation.version,
      leg: legNumber,
      event,
      // The first leg sees the status the event fired for; a resumed leg the record as it is.
      entity: legNumber === 1 ? pinned : current,
      now: pending.now,
      timeZone: caller.tenant.timezone,
    });
    let walk: Walk;
    try {
      walk = walkFrom(graph, pending.start, registry, evaluatorFor(leg), {
        startHandle: pending.startHandle,
      });
    } catch (error) {
      notes.push(messageOf(error));
      break;
    }
    if (steps.length + walk.steps.length > MAX_PLANNED_STEPS) {
      notes.push(`This run would take more than ${MAX_PLANNED_STEPS} steps; the dry run stops there.`);
      break;
    }
    for (const step of walk.steps) nodeIds.add(step.nodeId);
    for (const id of walk.edgeIds) edgeIds.add(id);

    // A code step's actions and the walk after it join the queue once the script has run.
    const queue = [...walk.steps];
    for (let at = 0; at < queue.length; at++) {
      const step = queue[at]!;
      const definition = registry.get(step.nodeType)!;
      // A node of the graph, or (undefined) an action a code step asked for.
      const node = graph.nodes.find((n) => n.id === step.nodeId);
      const base = {
        nodeId: step.nodeId,
        nodeType: step.nodeType,
        label: definition.label,
        leg: legNumber,
        summary:
          node || step.kind !== "action"
            ? summariseNode(node ?? { type: step.nodeType })
            : `From the script: ${summariseNode({ type: step.nodeType, params: step.params })}`,
      };
      if (step.kind === "condition") {
        leg.steps[step.nodeId] = { result: step.result };
        steps.push({
          ...base,
          kind: "condition",
          outcome: step.result ? "true" : "false",
          detail: [conditionDetail(node!, leg, step.result)],
        });
      } else if (step.kind === "action") {
        const prepared = prepareAction(leg, step);
        const params = prepared.params;
        readsSteps ||= templatedStrings(params ?? {}, definition.templated).some(({ text }) =>
          findTokens(text).some((token) => token.root === "steps"),
        );
        const resolvedParams = params
          ? redact(
              renderParams(params, definition.templated, templateContext(leg), {
                escape: definition.tokenEscapes?.(params),
              }),
            )
          : undefined;
        // An outside effect may be refused where only I/O can tell (an HTTP host resolving to a
        // private address): the dry run says so rather than "would send".
        const refused =
          prepared.ok && prepared.executor.effect === "outside"
            ? ((await prepared.executor.preflight?.(prepared.request as never)) ?? null)
            : null;
        if (prepared.ok && prepared.executor.effect === "outside" && prepared.executor.followUp) {
          const ran = await runFollowUp(leg, step, prepared.executor, prepared.request);
          steps.push({ ...base, kind: "action", ...ran.step });
          if (!ran.followUp) continue;
          const onward = walkFrom(graph, step.nodeId, registry, evaluatorFor(leg), {
            planned: new Set(queue.map((s) => s.nodeId)),
          });
          queue.splice(at + 1, 0, ...ran.followUp.actions, ...onward.steps);
          for (const s of onward.steps) nodeIds.add(s.nodeId);
          for (const id of onward.edgeIds) edgeIds.add(id);
          continue;
        }
        steps.push(
          prepared.ok && !refused
            ? {
                ...base,
                kind: "action",
                outcome: "would_run",
                detail: describeAction(step.nodeType, redact(prepared.request), subject, leg.entity),
                resolvedParams,
                ...emailOf(step.nodeType, prepared.request),
              }
            : {
                ...base,
                kind: "action",
                outcome: "error",
                detail: [],
                ...(resolvedParams ? { resolvedParams } : {}),
                error: refused ?? (prepared.ok ? "" : prepared.error),
              },
        );
        // A failed action ends its branch, as in a run: what follows it would not run.
        if (steps.at(-1)!.outcome === "error") {
          const after = reachableFrom(graph, step.nodeId);
          after.delete(step.nodeId);
          const kept = queue.slice(at + 1).filter((s) => !after.has(s.nodeId));
          if (kept.length < queue.length - at - 1)
            steps.at(-1)!.detail.push("The steps after it would not run.");
          queue.splice(at + 1, queue.length, ...kept);
          for (const id of after) nodeIds.delete(id);
        }
      } else {
        const wait = prepareWait(leg, step);
        if (!wait.ok) {
          steps.push({ ...base, kind: "wait", outcome: "error", detail: [], error: wait.error });
          continue;
        }
        const resumeAt = wait.resumeAt;
        // Nobody can decide in a dry run, so an approval is followed as if it timed out.
        const approval = wait.kind === "approval";
        const waitStep: DryRunStep = {
          ...base,
          kind: "wait",
          outcome: "would_wait",
          resumeAt: resumeAt.toISOString(),
          detail: [
            approval
              ? `Would wait for a decision ('${String(wait.output.title)}'), timing out after ${String(wait.output.timeoutHours)} h, then follow 'Timed out'.`
              : `Would wait until ${resumeAt.toISOString()}, ${fromNow(resumeAt.getTime() - now.getTime())}.`,
          ],
        };
        steps.push(waitStep);
        if (approval) approvals += 1;
        pendingLegs.push({
          start: step.nodeId,
          now: resumeAt,
          order: ++met,
          waitStep,
          ...(approval ? { startHandle: "timed_out" } : {}),
        });
      }
    }
  }

  if (legNumber > 1 && hasRecord(domain)) {
    const one = DOMAIN_LABELS[domain].one;
    notes.push(
      `When a wait ends, the real run reads the ${one} again, so the steps after it see the ${one} as it is then; this dry run shows it as it is now.`,
    );
  }
  if (approvals > 0) {
    notes.push(
      "A dry run cannot know what someone will decide, so after an approval it follows 'Timed out'; in a real run an approval or a rejection follows 'Approved' or 'Rejected'.",
    );
  }
  if (readsSteps) {
    notes.push(
      "Outputs of earlier actions ({steps.…}) only exist in a real run, so they come out empty here.",
    );
  }

  return {
    steps,
    path: { nodeIds: [...nodeIds], edgeIds: [...edgeIds] },
    entity: pinned
      ? {
          domain: pinned.domain,
          id: pinned.id,
          label: entityLabel(pinned.domain, pinned.id, current?.data ?? pinned.data),
        }
      : null,
    tokenRecord: tokenRecord(pinned),
    timeZone: caller.tenant.timezone,
    notes,
  };
}

/**
 * Runs a step that decides its own next actions (a code step: its `send` only runs the script in
 * the sandbox and has no effect) and says what it returned and how many actions it asks for.
 */
async function runFollowUp(
  leg: LegContext,
  step: { nodeId: string; nodeType: string },
  executor: OutsideExecutor<never>,
  request: Record<string, unknown>,
): Promise<{
  step: Pick<DryRunStep, "outcome" | "detail" | "error">;
  followUp: NonNullable<ReturnType<typeof followUpOf>> | null;
}> {
  let output: ActionOutput;
  try {
    output = await executor.send(request as never, actionContext(leg, step.nodeId));
  } catch (error) {
    if (!(error instanceof ActionError)) throw error;
    return { step: { outcome: "error", detail: [], error: error.message }, followUp: null };
  }
  const followUp = followUpOf(step, output)!;
  leg.steps[step.nodeId] = followUp.output;
  const count = followUp.actions.length;
  return {
    step: {
      outcome: "would_run",
      detail: [
        `The script ran in the sandbox and returned ${excerpt(JSON.stringify(followUp.output), 300)}.`,
        count === 0
          ? "It asks for no actions."
          : `It asks for ${count} action${count === 1 ? "" : "s"}, listed next; none was taken.`,
      ],
    },
    followUp,
  };
}

/** The email a send-email step would send, from the request its executor prepared. */
function emailOf(nodeType: string, request: Record<string, unknown>): { email?: DryRunEmail } {
  if (nodeType !== "auto.action.send_email") return {};
  const { to, subject, html } = request;
  return typeof to === "string" && typeof subject === "string" && typeof html === "string"
    ? { email: { to, subject, html } }
    : {};
}

/** Why a condition came out as it did: the value it read. */
function conditionDetail(node: GraphNode, leg: LegContext, result: boolean): string {
  const verdict = `so it follows '${result ? "true" : "false"}'.`;
  const { entity } = leg;
  const path = node.type === "auto.condition.field" ? node.params.path : undefined;
  if (typeof path === "string" && readsStepOutput(path)) {
    const value = readPath(leg.steps, path.slice("steps.".length));
    const shown = value === undefined || value === null ? "not set" : `${JSON.stringify(value)}`;
    return `${path} is ${shown}, ${verdict}`;
  }
  if (!entity) return `There is no record to check, ${verdict}`;
  if (node.type === "auto.condition.field" && typeof node.params.path === "string") {
    const value = readPath(entity.data, node.params.path);
    const shown = value === undefined || value === null ? "not set" : `${JSON.stringify(value)}`;
    return `${node.params.path} is ${shown}, ${verdict}`;
  }
  if (node.type === "auto.condition.has_tag") {
    const tags = Array.isArray(entity.data.tags) ? entity.data.tags.map(String) : [];
    return `${tags.length > 0 ? `Its tags are ${tags.join(", ")}` : "It has no tags"}, ${verdict}`;
  }
  return `It is ${result ? "true" : "false"}, ${verdict}`;
}
