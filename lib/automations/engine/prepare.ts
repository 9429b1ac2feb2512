import { registry } from "@/lib/automations/nodes/registry";
import { executorFor } from "@/lib/automations/nodes/executors";
import type { ActionExecutor } from "@/lib/automations/nodes/executor";
import {
  findTokens,
  renderTemplate,
  templatedStrings,
  type TemplateContext,
} from "@/lib/automations/tokens/render";
import { approval, type ApprovalParams } from "@/lib/automations/nodes/timing/approval";
import { resumeAtFor } from "@/lib/automations/nodes/timing/resume-at";
import {
  matchKeyFor,
  waitForEvent,
  type WaitForEventParams,
} from "@/lib/automations/nodes/timing/wait-for-event";
import type { WaitKind } from "@/lib/db/schema";
import { cutRead } from "./kept-output";
import { actionContext, templateContext, type LegContext } from "./leg";
import type { PlannedStep } from "./interpreter";
import { messageOf } from "@/lib/errors";

/**
 * Turns a planned step into what will be done, with templates filled from the leg as it is at
 * that moment (earlier steps' outputs included). Pure: a real run then does it, a dry run
 * describes it — so both say the same thing, failures included.
 */

type ActionStep = Extract<PlannedStep, { kind: "action" }>;
type WaitStep = Extract<PlannedStep, { kind: "wait" }>;

export type PreparedAction =
  | {
      ok: true;
      executor: ActionExecutor<never>;
      params: Record<string, unknown>;
      /** What will be done: recorded as the delivery's request (and, redacted, the step's input). */
      request: Record<string, unknown>;
    }
  | {
      ok: false;
      error: string;
      /** Present when the params parsed (and, for `request`, were rendered) before the failure. */
      params?: Record<string, unknown>;
      request?: Record<string, unknown>;
    };

/** `templates`: the step's template context, when the caller renders with it too (the dry run). */
export function prepareAction(
  leg: LegContext,
  step: ActionStep,
  templates?: TemplateContext,
): PreparedAction {
  const definition = registry.get(step.nodeType);
  const executor = executorFor(step.nodeType);
  if (!definition || !executor) {
    return { ok: false, error: `'${step.nodeType}' is not an action this version of Tillflow can run.` };
  }
  // Stored graphs outlive code: params are checked again at execution time.
  const parsed = definition.params.safeParse(step.params);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join(".") || "params"}: ${i.message}`).join("; ");
    return { ok: false, error: `${definition.label}: the step's settings are invalid (${detail}).` };
  }
  const params = parsed.data as Record<string, unknown>;
  // A token that reaches into the cut part of an earlier output fails the step, naming it.
  for (const { text } of templatedStrings(params, definition.templated)) {
    for (const token of findTokens(text)) {
      const cut = token.root === "steps" ? cutRead(leg.steps, token.path) : null;
      if (cut) return { ok: false, error: cut, params };
    }
  }
  let request: Record<string, unknown>;
  try {
    request = executor.prepare(params as never, actionContext(leg, step.nodeId, templates));
  } catch (error) {
    return { ok: false, error: messageOf(error), params };
  }
  const problem = executor.check?.(request as never) ?? null;
  return problem ? { ok: false, error: problem, params, request } : { ok: true, executor, params, request };
}

export type PreparedWait =
  | {
      ok: true;
      kind: Extract<WaitKind, "delay" | "approval" | "event">;
      resumeAt: Date;
      /**
       * What the wait's step shows: when it resumes, for an approval what is asked and of whom, for
       * a wait for an event which event and how it is matched.
       */
      output: Record<string, unknown>;
      /** A wait for an event: the event type and the key its event is found by. */
      match?: { event: string; key: string };
    }
  | { ok: false; error: string };

/** When a wait resumes (clamped to 1 minute .. 30 days after the leg's `now`, SPEC §2). */
export function prepareWait(leg: LegContext, step: WaitStep): PreparedWait {
  const definition = registry.get(step.nodeType);
  const parsed = definition?.params.safeParse(step.params);
  if (!definition || !parsed?.success) {
    return { ok: false, error: "The wait's settings are invalid; the steps after it did not run." };
  }
  try {
    const resumeAt = resumeAtFor({ type: step.nodeType, params: parsed.data }, leg.now);
    if (step.nodeType === waitForEvent.type)
      return prepareEventWait(leg, parsed.data as WaitForEventParams, resumeAt);
    if (step.nodeType !== approval.type)
      return { ok: true, kind: "delay", resumeAt, output: { resumeAt: resumeAt.toISOString() } };
    const params = parsed.data as ApprovalParams;
    return {
      ok: true,
      kind: "approval",
      resumeAt,
      output: {
        resumeAt: resumeAt.toISOString(),
        title: renderTemplate(params.title, templateContext(leg)),
        ...(params.approverRole !== undefined ? { approverRole: params.approverRole } : {}),
        // The quorum the run paused with: its votes are counted against it (nodes/timing/quorum.ts).
        ...(params.approvers !== undefined ? { approvers: params.approvers } : {}),
        ...(params.reject !== undefined ? { reject: params.reject } : {}),
        timeoutHours: params.timeoutHours,
        // Kept with what was asked, so the reminders task reads the hours the run paused with,
        // not those of a version published since.
        ...(params.remindAfterHours !== undefined ? { remindAfterHours: params.remindAfterHours } : {}),
        ...(params.escalateAfterHours !== undefined ? { escalateAfterHours: params.escalateAfterHours } : {}),
        // Kept too: a decision is checked against what the run paused with (waits/approvals.ts).
        ...(params.allowSelfApproval !== undefined ? { allowSelfApproval: params.allowSelfApproval } : {}),
      },
    };
  } catch (error) {
    return { ok: false, error: messageOf(error) };
  }
}

/** A wait for an event: its match key from the leg's record, or its field's value rendered now. */
function prepareEventWait(leg: LegContext, params: WaitForEventParams, resumeAt: Date): PreparedWait {
  const { match } = params;
  const record = leg.entity ? { domain: leg.entity.domain, id: leg.entity.id } : null;
  const value = match.kind === "field" ? renderTemplate(match.equals, templateContext(leg)) : undefined;
  const key = matchKeyFor(match, { record, renderedValue: value });
  if (!key)
    return {
      ok: false,
      error:
        match.kind === "same_record"
          ? "This run is about no record, so it cannot wait for an event about the same record; match a field of the event instead."
          : `The value to wait for (${match.equals}) came out empty for this run, so no event could match it.`,
    };
  return {
    ok: true,
    kind: "event",
    resumeAt,
    match: { event: params.event, key },
    output: {
      resumeAt: resumeAt.toISOString(),
      waitingFor: params.event,
      match: match.kind === "field" ? { kind: "field", path: match.path, value } : { kind: "same_record" },
      timeoutHours: params.timeoutHours,
    },
  };
}
