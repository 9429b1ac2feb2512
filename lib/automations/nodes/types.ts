import type { z } from "zod";
import type { Domain } from "@/lib/domains/domains";
import type { TokenEscape } from "@/lib/automations/tokens/escape";
import type { RunEntity } from "./context";
import type { CredentialKind } from "@/lib/credentials/kinds";

/**
 * Terminology (browser-safe half of the node registry; executors live in `*.execute.ts`, server-only)
 * - node type: a stable string stored in graphs (`auto.action.add_tag`); never renamed.
 * - category: `trigger` starts a run, `condition` branches on `true`/`false`, `action` has an
 *   effect, `wait` defers its downstream (no effect, no branch).
 * - handles: `in` (every node but a trigger) and named outs (`out`, `true`, `false`, …).
 * - trigger domain: the kind of record a run is about; entityless domains (`webhook`,
 *   `schedule`) have a payload instead of a stored record.
 */
export type NodeCategory = "trigger" | "condition" | "action" | "wait";
export type TriggerDomain = Domain | "webhook" | "schedule" | "later";

export interface NodeHandles {
  in: boolean;
  out: readonly string[];
  /**
   * Out handles named by the node's params instead of `out`: `branches` = the ids of
   * `params.branches`, in order (a Split). Read them with `outHandles` (catalog.ts).
   */
  outFrom?: "branches";
}

export interface NodeDefinition<P extends z.ZodType = z.ZodType> {
  type: string;
  category: NodeCategory;
  label: string;
  description: string;
  params: P;
  defaultParams(): z.infer<P>;
  handles: NodeHandles;
  /**
   * For a trigger: the domain of its runs. For another node: the one domain it works on, which
   * validation checks against the trigger above it. Absent = works under any trigger.
   */
  entityDomain?: TriggerDomain;
  /** For a trigger: the event type it listens to (`order.paid`). */
  event?: string;
  /**
   * Param names shown only to editors and admins (SPEC §2 "Roles"): a viewer's every reply (API,
   * MCP, pages) has them taken out (lib/automations/nodes/editor-only.ts). A webhook trigger's
   * `token` is its address, and posting to it starts runs. Absent: every param is shown to viewers.
   */
  editorOnlyParams?: readonly string[];
  /** Param names whose strings accept `{token}`s. */
  templated?: readonly string[];
  /**
   * How token values are escaped in each templated param, from the params (an HTTP body is JSON
   * or not by its Content-Type): the engine, the dry run and the editor's preview all ask this.
   * Absent, or a param left out: values go in as they are.
   */
  tokenEscapes?(params: Readonly<Record<string, unknown>>): Partial<Record<string, TokenEscape>>;
  /**
   * Whether the step, so set, reaches a customer (a Send email; an HTTP step marked "reaches the
   * customer"): it then has a `purpose` param (lib/consent/purpose.ts), which publishing asks for.
   * Absent: never customer-facing.
   */
  customerFacing?(params: Readonly<Record<string, unknown>>): boolean;
  /**
   * The param holding the time zone the merchant reads the step's times in (a schedule's, a Wait
   * until's `timezone`): a new step starts on the shop's zone there, never the browser's
   * (the editor's `step-form/shop-zone.ts`). Absent: it holds none.
   */
  timeZoneParam?: string;
  /** A short sentence shown on the node: "Wait 2 days", "Add tag 'vip'". */
  summarise(params: z.infer<P>): string;
  /**
   * The sentence for a draft whose params do not parse yet ("Wait (set a duration)"), so the node
   * says what is missing; undefined (or absent) = its label.
   */
  summariseDraft?(params: Readonly<Record<string, unknown>>): string | undefined;
  /**
   * A platform job (purge run history, mark carts abandoned, ...) that the built-in automations run.
   * It is left out of merchants' palettes; a built-in's editor still offers it.
   */
  platform?: boolean;
  /**
   * An action whose output can decide what follows (the code step): a walk stops after it, and
   * the engine plans the rest once it has run, so conditions after it read what it returned.
   */
  planAfterRun?: boolean;
  /**
   * What the step hands on as `{steps.<id>.…}` (SPEC §2 "What a step hands on"): the paths under
   * its output that tokens, conditions and the editor's token picker offer downstream. A path
   * ending in `.*` stands for anything under it (an HTTP answer's parsed `body`). Absent: nothing.
   */
  outputs?(params: z.infer<P>): readonly StepOutput[];

  // What follows is the step's own say in the generic parts (a step is a folder: the validator, the
  // dry run and the settings form ask these, and never name a node type).

  /**
   * Labels of its params that read better than the shared ones (`paramFields` in
   * lib/automations/editor/param-form.ts): `{ text: "Message" }`. A param left out gets the shared
   * label, or its name in sentence case.
   */
  paramLabels?: Readonly<Record<string, string>>;
  /** Help under its params' inputs, where the shared help would not do (how its tokens are escaped). */
  paramHelp?: Readonly<Record<string, string>>;
  /**
   * Checks of its params beyond the schema: limits that keep a flow from being published without
   * making a stored graph that breaks them unparseable ("A wait can be at most 30 days."). The ready
   * issues and the settings form both show them.
   */
  check?(params: z.infer<P>): string[];
  /**
   * Whether the step, so set, reads or changes the run's record, so that a run with none (a webhook,
   * a schedule without an audience) could not do it. Absent: a condition needs one, another step not.
   */
  needsRecord?(params: z.infer<P>): boolean;
  /**
   * What is wrong with the step under a trigger whose runs are about `domain`, beyond "needs a
   * record" and its `entityDomain` (the review checks those): a field the record does not have.
   */
  domainIssues?(params: z.infer<P>, domain: TriggerDomain): string[];
  /**
   * `{token}`s the step reads besides its templated params, checked as those are: a field condition
   * on an earlier step's output (`steps.code1.score`). Given the params as written.
   */
  readsTokens?(params: Readonly<Record<string, unknown>>): { param: string; text: string }[];
  /**
   * Ready issues that look past the step's own params: at the rest of the flow (a Later step needs
   * a Later trigger of its name) or at the shop's setup (`facts`: an AI model, credentials' hosts,
   * teams). Sentences about this node; `[]` or absent: nothing to say.
   */
  review?(step: ReviewedStep, flow: FlowReview): string[];
  /**
   * What the action would do, in a dry run or a backtest, from the request its executor prepared
   * (templates filled in): "Would add tag 'vip' to order #1001.". Every action has one (a compile
   * check in registry.ts).
   */
  describeDryRun?(request: Record<string, unknown>, on: DryRunSubject): string[];
  /**
   * The email a dry run shows rendered, from the request its executor prepared (a Send email's
   * recipient, subject and HTML body); null or absent: none.
   */
  dryRunEmail?(request: Readonly<Record<string, unknown>>): DryRunEmailShown | null;
  /**
   * An outside action a dry run describes from its request without calling out (the AI step: the
   * prompt it would send, never the model's answer), and the refusal that only says it is not set
   * up, which the dry run describes it through rather than fails on. Absent: the dry run takes
   * the action as a run would, without its effect (a code step's script runs in the sandbox).
   */
  dryRunDescribesOnly?: { notSetUp: string };
  /**
   * A dry run of a flow with this step needs the editor role (a code step's script runs even
   * then). Absent: anyone who may see the flow may try it.
   */
  dryRunNeedsEditor?: boolean;
  /**
   * Shown under Timing in the editor's palette though it is an action to the engine (Later: it
   * writes a keyed follow-up, but defers what it hands on). Copied into the catalog (`catalog.ts`).
   */
  paletteTiming?: boolean;
  /**
   * What a wait whose end a dry run cannot know would do ("Would wait up to 3 days for 'Order
   * fulfilled' …"), given when it would time out. Absent: the dry run says when it would resume.
   */
  describeDryRunWait?(params: z.infer<P>, resumeAt: Date, timeZone: string): string;
  /**
   * The credentials the step names in its params as written, each with the kinds it can use: a
   * save refuses one the shop does not have or of another kind (lib/credentials/references.ts).
   * Absent: it names none.
   */
  credentials?(params: Readonly<Record<string, unknown>>): CredentialUse[];
}

/** An email as a dry run shows it: to whom, its subject, its rendered HTML. */
export interface DryRunEmailShown {
  to: string;
  subject: string;
  html: string;
}

/** A credential a step names, and the kinds of credential the step can use there. */
export interface CredentialUse {
  credentialId: string;
  kinds: readonly CredentialKind[];
}

/** What a dry-run sentence reads besides the request: the record, named, and the shop's zone. */
export interface DryRunSubject {
  /** The run's record in words: "order #1001". */
  subject: string;
  entity: RunEntity | null;
  /** The shop's IANA time zone, which times are written in. */
  timeZone: string;
}

/** One node as the review (review/validate.ts) read it. */
export interface ReviewedStep {
  node: { id: string; type: string; params: Record<string, unknown> };
  definition: NodeDefinition;
  /** The parsed params (defaults filled in), or `null` when they are invalid. */
  params: Record<string, unknown> | null;
}

/** What a step's `review` reads: every node of the flow, in order, and what the server knows. */
export interface FlowReview {
  steps: readonly ReviewedStep[];
  facts: ServerFacts;
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

/** One path of a step's output, with what it is in the merchant's words ("the answer's status code"). */
export interface StepOutput {
  path: string;
  label: string;
}

/** What a condition reads when it is evaluated: the run's entity, event and earlier outputs. */
export interface EvaluationContext {
  entity: Record<string, unknown> | null;
  event: { type: string; payload: Record<string, unknown> } & Record<string, unknown>;
  steps: Record<string, Record<string, unknown>>;
}

/** What a condition's `explain` reads besides the evaluation's: how to name the record, the shop's zone. */
export interface ExplainContext extends EvaluationContext {
  /** The run's record in words: "the order". */
  subject: string;
  /** The shop's IANA time zone, which times are written in. */
  timeZone: string;
}

/**
 * Why a condition went its way (conditions/why.ts): the field it read, the value found there or
 * that none was, the comparison and the value compared with, and all of it in a sentence.
 */
export interface ConditionWhy {
  /** The field read (`total`, `steps.code1.score`); none for a tag check. */
  path?: string;
  /** The value read (a long text or big object cut); absent when it was missing. */
  value?: unknown;
  /** Nothing was there: the field is absent or empty, or there was no record. */
  missing: boolean;
  /** A field condition's operator (`gt`, `in`, …), or `has_tag`. */
  operator: string;
  /** What the value was compared with: the condition's value, or the tag. */
  compared?: unknown;
  /** In the merchant's words: "Total is 80, not more than 100". */
  text: string;
}

export interface ConditionDefinition<P extends z.ZodType = z.ZodType> extends NodeDefinition<P> {
  category: "condition";
  /** Pure: decides the branch. Never throws for missing data; a missing field is simply not equal. */
  evaluate(params: z.infer<P>, ctx: EvaluationContext): boolean;
  /** Pure: why `evaluate` came out `result` on the same context. */
  explain(params: z.infer<P>, ctx: ExplainContext, result: boolean): ConditionWhy;
}

/** What a split decided for one subject: its run-step output, exactly this shape (SPEC §2). */
export interface SplitChoice {
  /** The branch's id: the out handle followed. */
  branch: string;
  label: string;
  weight: number;
  /** The branch's share of all subjects, 0..1 (its weight over the sum of weights). */
  share: number;
}

/**
 * A split (category `condition`, out handles from its branches): the caller derives a stable
 * position in [0, 1) for the run's subject, and `split` maps it to a branch. Pure.
 */
export interface SplitDefinition<P extends z.ZodType = z.ZodType> extends NodeDefinition<P> {
  category: "condition";
  split(params: z.infer<P>, position: number): SplitChoice | null;
  /** Whom it divides: each customer once, or each record. */
  by(params: z.infer<P>): "customer" | "record";
}
