import { z } from "zod";
import { registry as defaultRegistry, type Registry } from "@/lib/automations/nodes/registry";
import type { NodeCategory, NodeDefinition } from "@/lib/automations/nodes/types";

/*
 * Terminology (see README.md beside this file)
 *
 *   FlowSpec   what the model answers with, exactly: { name, trigger: { type, params? }, steps }
 *   step       one entry of a list: an action, a wait, a condition, an approval or a wait for an
 *              event
 *   list       `steps`, or a branch of a condition (`then`, `else`), of an approval
 *              (`approved`, `rejected`, `timed_out`) or of a wait for an event (`received`,
 *              `timed_out`); a condition, an approval or a wait for an event ends its list, and
 *              its branches continue the flow
 *
 * The `type` values the model may use are enums read from the registry by category, so a new node
 * type reaches the builder with no edit here. Platform jobs (`platform: true`) are left out:
 * merchants cannot use them.
 */

/** A free-form params object; each node's own schema checks it after compiling (`validate`). */
const params = z.record(z.string(), z.unknown());

/**
 * The merchant-usable definitions of a category. A step whose exits its params name (a Split) is
 * left out: a FlowSpec condition has only `then` and `else`.
 */
function usable(registry: Registry, category: NodeCategory): NodeDefinition[] {
  return registry
    .byCategory(category)
    .filter((definition) => !definition.platform && definition.handles.outFrom === undefined);
}

/** Whether a wait-category node branches like an approval (`approved` / `rejected` / `timed_out`). */
export function isApprovalDefinition(definition: NodeDefinition): boolean {
  return definition.category === "wait" && definition.handles.out.includes("approved");
}

/** Whether a wait-category node waits for an event (`received` / `timed_out`). */
export function isEventWaitDefinition(definition: NodeDefinition): boolean {
  return definition.category === "wait" && definition.handles.out.includes("received");
}

/** The `type` values of each kind of step, from the registry. */
export interface SpecTypes {
  trigger: string[];
  action: string[];
  condition: string[];
  /** Wait-category types with one `out` (Wait, Wait until). */
  wait: string[];
  /** The approval's type: a FlowSpec approval step names none, the compiler adds it. */
  approval: string;
  /** The wait for an event's type: a FlowSpec `wait_for_event` step names none either. */
  waitForEvent: string;
}

export function specTypes(registry: Registry = defaultRegistry): SpecTypes {
  const waits = usable(registry, "wait");
  const approval = waits.find(isApprovalDefinition);
  if (!approval) throw new Error("The registry has no approval node.");
  const eventWait = waits.find(isEventWaitDefinition);
  if (!eventWait) throw new Error("The registry has no wait for an event.");
  return {
    trigger: usable(registry, "trigger").map((d) => d.type),
    action: usable(registry, "action").map((d) => d.type),
    condition: usable(registry, "condition").map((d) => d.type),
    wait: waits.filter((d) => !isApprovalDefinition(d) && !isEventWaitDefinition(d)).map((d) => d.type),
    approval: approval.type,
    waitForEvent: eventWait.type,
  };
}

type Params = Record<string, unknown>;

export type ActionStep = { kind: "action"; type: string; params?: Params };
export type WaitStep = { kind: "wait"; type: string; params: Params };
export type ConditionStep = { kind: "condition"; type: string; params: Params; then: Step[]; else?: Step[] };
export type ApprovalStep = {
  kind: "approval";
  params: Params;
  approved?: Step[];
  rejected?: Step[];
  timed_out?: Step[];
};
export type WaitForEventStep = {
  kind: "wait_for_event";
  params: Params;
  received?: Step[];
  timed_out?: Step[];
};
export type Step = ActionStep | WaitStep | ConditionStep | ApprovalStep | WaitForEventStep;
export interface FlowSpec {
  name: string;
  trigger: { type: string; params?: Params };
  steps: Step[];
}

/** Where the steps after a branching step go, by kind. */
const BRANCHES: Partial<Record<Step["kind"], string>> = {
  condition: "`then` or `else`",
  approval: "`approved`, `rejected` or `timed_out`",
  wait_for_event: "`received` or `timed_out`",
};

/** A condition, an approval or a wait for an event ends its list: anything after it is refused. */
function endsItsList(steps: Step[], ctx: z.RefinementCtx) {
  steps.forEach((step, i) => {
    const branches = BRANCHES[step.kind];
    if (branches && i < steps.length - 1)
      ctx.addIssue({
        code: "custom",
        path: [i + 1],
        message: `${step.kind === "approval" ? "an" : "a"} ${step.kind} ends its list: put the steps after it inside its ${branches}`,
      });
  });
}

/** A `type` field: one of `types`, or, for the loose schema, any string. */
function typeField(types: readonly string[] | null, what: string) {
  if (types === null) return z.string().min(1);
  return z.enum(types as [string, ...string[]], {
    error: (issue) => `'${String(issue.input)}' is not ${what} Tillflow knows`,
  });
}

/**
 * The FlowSpec schema. `types` null gives the loose twin (any type string), which the builder
 * falls back on to compile an answer whose only fault is a type, so the fault becomes a ready
 * issue the model is told about instead of a whole answer thrown away.
 */
function buildSchema(types: SpecTypes | null) {
  const list = (): z.ZodType<Step[]> => z.array(step).superRefine(endsItsList);
  const step: z.ZodType<Step> = z.lazy(() =>
    z.discriminatedUnion("kind", [
      z.object({
        kind: z.literal("action"),
        type: typeField(types?.action ?? null, "an action"),
        params: params.optional(),
      }),
      z.object({
        kind: z.literal("wait"),
        type: typeField(types?.wait ?? null, "a wait"),
        params,
      }),
      z.object({
        kind: z.literal("condition"),
        type: typeField(types?.condition ?? null, "a condition"),
        params,
        then: list(),
        else: list().optional(),
      }),
      z.object({
        kind: z.literal("approval"),
        params,
        approved: list().optional(),
        rejected: list().optional(),
        timed_out: list().optional(),
      }),
      z.object({
        kind: z.literal("wait_for_event"),
        params,
        received: list().optional(),
        timed_out: list().optional(),
      }),
    ]),
  );
  return z.object({
    // A long name is cut to the 120 characters an automation's name may have, not sent back.
    name: z.string().trim().min(1),
    trigger: z.object({ type: typeField(types?.trigger ?? null, "a trigger"), params: params.optional() }),
    steps: list(),
  });
}

/** The FlowSpec with the registry's types, for a registry of one's own (tests). */
export function flowSpecSchema(registry: Registry = defaultRegistry): z.ZodType<FlowSpec> {
  return buildSchema(specTypes(registry));
}

/** What the model must answer with, and what its answer is checked against. */
export const FlowSpec: z.ZodType<FlowSpec> = flowSpecSchema();
/** The same shape with any `type` string; see `buildSchema`. */
export const LooseFlowSpec: z.ZodType<FlowSpec> = buildSchema(null);

/** The FlowSpec as JSON Schema: the model's structured output, and part of its prompt. */
export function flowSpecJsonSchema(schema: z.ZodType<FlowSpec> = FlowSpec): Record<string, unknown> {
  return z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
}
