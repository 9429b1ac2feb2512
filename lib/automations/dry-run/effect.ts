import { actionDone, endBranch, type ActionStep } from "@/lib/automations/engine/advance";
import { actionContext, redact, templateContext } from "@/lib/automations/engine/leg";
import type { Leg } from "@/lib/automations/engine/leg-state";
import { prepareAction } from "@/lib/automations/engine/prepare";
import { findTokens, renderParams, templatedStrings } from "@/lib/automations/tokens/render";
import {
  ActionError,
  type ActionContext,
  type ActionOutput,
  type OutsideExecutor,
} from "@/lib/automations/nodes/executor";
import { registry } from "@/lib/automations/nodes/registry";
import { getDb } from "@/lib/db/client";
import { isUuid } from "@/lib/errors";
import { describeAction, excerpt, stepHeading } from "./describe";
import type { DryRunEmail, DryRunStep, Trail } from "./result";
import type { DryRunStart } from "./start";

/**
 * The dry run's effect step, in place of the phase's (`engine/phase.ts`: transactions,
 * deliveries): the action at the leg's cursor is prepared as a run prepares it
 * (`prepareAction`: params parsed again, templates filled, the executor's check) and described,
 * not done. An outside action asks its executor's `preflight` what a real send would be refused
 * for. An AI step shows the prompt it would send and asks nothing. A code step's script runs in the sandbox (its `send` has no effect), and what it asks for
 * joins the leg as in a run (`actionDone`). A failure — a script's too — ends its branch
 * (`endBranch`), as in a run.
 */

type Heading = ReturnType<typeof stepHeading>;

/** Whether an action's templates read `{steps.…}`, the outputs only a real run has. */
function readsSteps(params: Record<string, unknown> | undefined, templated: readonly string[] | undefined) {
  return templatedStrings(params ?? {}, templated).some(({ text }) =>
    findTokens(text).some((token) => token.root === "steps"),
  );
}

/** The email a step would send (a Send email's `dryRunEmail`), from the request its executor prepared. */
function emailOf(nodeType: string, request: Record<string, unknown>): { email?: DryRunEmail } {
  const email = registry.get(nodeType)?.dryRunEmail?.(request);
  return email ? { email } : {};
}

/** Takes the action at `leg`'s cursor with no effect, writing down what a run would do. */
export async function tryAction(start: DryRunStart, trail: Trail, leg: Leg, step: ActionStep): Promise<void> {
  const definition = registry.get(step.nodeType)!;
  const heading = stepHeading(start.graph, step, leg.ctx);
  // One template context for the step: the executor fills its fields from it, and so does the
  // preview of its params.
  const templates = templateContext(leg.ctx);
  const prepared = prepareAction(leg.ctx, step, templates);
  const params = prepared.params;
  trail.readsSteps ||= readsSteps(params, definition.templated);
  const resolvedParams = params
    ? redact(
        renderParams(params, definition.templated, templates, {
          escape: definition.tokenEscapes?.(params),
        }),
      )
    : undefined;
  // An outside effect may be refused where only I/O can tell (an HTTP host resolving to a
  // private address): the dry run says so rather than "would send".
  const refused =
    prepared.ok && prepared.executor.effect === "outside"
      ? ((await prepared.executor.preflight?.(prepared.request as never, { tenantId: leg.ctx.tenantId })) ??
        null)
      : null;
  // An AI step asks nothing in a dry run (SPEC §2): it says what it would ask, and what follows it
  // waits on the answer. With no model set up it says that a run would fail there, and still shows
  // what follows, as it would run once a model is set up (issue 49).
  // A marketing step a run would skip for its customer's consent (lib/consent): said, and the
  // walk goes on past it as a run does.
  const skip =
    prepared.ok && !refused && prepared.executor.skipWhy
      ? await prepared.executor.skipWhy(getDb(), prepared.request as never, { tenantId: leg.ctx.tenantId })
      : null;
  if (skip) {
    const skippedFor = skip.output.skippedFor;
    trail.steps.push({
      ...heading,
      kind: "action",
      outcome: "would_skip",
      detail: [skip.message],
      ...(resolvedParams ? { resolvedParams } : {}),
      ...(skippedFor === "consent" || skippedFor === "unsubscribed" ? { skippedFor } : {}),
    });
    if (!definition.planAfterRun) {
      leg.cursor += 1;
      return;
    }
    const onward = actionDone(leg, step, { skipped: true });
    for (const s of onward?.onward.steps ?? []) trail.nodeIds.add(s.nodeId);
    for (const id of onward?.onward.edgeIds ?? []) trail.edgeIds.add(id);
    return;
  }
  // A marketing message a run would defer now (lib/messaging: the customer's quiet hours, the
  // shop's cap, a message of higher priority): said with until when, and the walk goes on as if
  // it went then.
  const deferred =
    prepared.ok && !refused && prepared.executor.deferWhy
      ? await prepared.executor.deferWhy(getDb(), prepared.request as never, {
          tenantId: leg.ctx.tenantId,
          automationId: leg.ctx.automationId,
          runId: isUuid(leg.ctx.runId) ? leg.ctx.runId : null,
          nodeId: step.nodeId,
          eventId: leg.ctx.event.id,
        })
      : null;
  if (deferred && prepared.ok) {
    const kind = deferred.output.deferredFor;
    trail.steps.push({
      ...heading,
      kind: "action",
      outcome: "would_wait",
      detail: [
        deferred.message,
        ...describeAction(
          step.nodeType,
          redact(prepared.request),
          start.subject,
          leg.ctx.entity,
          leg.ctx.timeZone,
        ),
      ],
      resumeAt: deferred.until.toISOString(),
      ...(kind === "quiet" || kind === "cap" || kind === "yield" ? { deferredFor: kind } : {}),
      ...(resolvedParams ? { resolvedParams } : {}),
      ...emailOf(step.nodeType, prepared.request),
    });
    leg.cursor += 1;
    return;
  }
  // A step the dry run only describes (the AI step asks no model); its "not set up" is said, not a failure.
  const describesOnly = definition.dryRunDescribesOnly;
  const onlyDescribed = describesOnly !== undefined;
  const notSetUp = describesOnly !== undefined && refused === describesOnly.notSetUp ? refused : null;
  if (prepared.ok && !onlyDescribed && prepared.executor.effect === "outside" && prepared.executor.followUp) {
    const ctx = actionContext(leg.ctx, step.nodeId, templates);
    return runScript(trail, leg, step, heading, prepared.executor, prepared.request, ctx);
  }
  if (prepared.ok && (!refused || notSetUp !== null)) {
    const detail = describeAction(
      step.nodeType,
      redact(prepared.request),
      start.subject,
      leg.ctx.entity,
      leg.ctx.timeZone,
    );
    trail.steps.push({
      ...heading,
      kind: "action",
      outcome: "would_run",
      detail: notSetUp !== null ? [`${notSetUp} Until then a run fails at this step.`, ...detail] : detail,
      resolvedParams,
      ...emailOf(step.nodeType, prepared.request),
    });
    if (!definition.planAfterRun) {
      leg.cursor += 1;
      return;
    }
    // What follows a step whose output can decide it (an HTTP answer) is walked as a run walks it,
    // with no output: a dry run sends nothing, so conditions on its answer find nothing.
    const onward = actionDone(leg, step, {});
    for (const s of onward?.onward.steps ?? []) trail.nodeIds.add(s.nodeId);
    for (const id of onward?.onward.edgeIds ?? []) trail.edgeIds.add(id);
    return;
  }
  failed(trail, leg, step, {
    ...heading,
    kind: "action",
    outcome: "error",
    detail: [],
    ...(resolvedParams ? { resolvedParams } : {}),
    error: refused ?? (prepared.ok ? "" : prepared.error),
  });
}

/** A failed action ends its branch, as in a run: what follows it would not run. */
function failed(trail: Trail, leg: Leg, step: ActionStep, record: DryRunStep): void {
  trail.steps.push(record);
  const planned = leg.plan.length;
  const after = endBranch(leg, step);
  if (leg.plan.length < planned) record.detail.push("The steps after it would not run.");
  for (const id of after) trail.nodeIds.delete(id);
}

/**
 * A step that decides its own next actions (a code step: its `send` only runs the script in the
 * sandbox and has no effect): what it returned and how many actions it asks for, which join the
 * leg next, with the walk after it, as they do in a run.
 */
async function runScript(
  trail: Trail,
  leg: Leg,
  step: ActionStep,
  heading: Heading,
  executor: OutsideExecutor<never>,
  request: Record<string, unknown>,
  ctx: ActionContext,
): Promise<void> {
  let output: ActionOutput;
  try {
    output = await executor.send(request as never, ctx);
  } catch (error) {
    if (!(error instanceof ActionError)) throw error;
    return failed(trail, leg, step, {
      ...heading,
      kind: "action",
      outcome: "error",
      detail: [],
      error: error.message,
    });
  }
  const followUp = actionDone(leg, step, output)!;
  const count = followUp.actions.length;
  trail.steps.push({
    ...heading,
    kind: "action",
    outcome: "would_run",
    detail: [
      `The script ran in the sandbox and returned ${excerpt(JSON.stringify(followUp.output), 300)}.`,
      count === 0
        ? "It asks for no actions."
        : `It asks for ${count} action${count === 1 ? "" : "s"}, listed next; none was taken.`,
    ],
  });
  for (const s of followUp.onward.steps) trail.nodeIds.add(s.nodeId);
  for (const id of followUp.onward.edgeIds) trail.edgeIds.add(id);
}
