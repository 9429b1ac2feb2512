import type { NodeDefinition, TriggerDomain } from "@/lib/automations/nodes/types";
import type { FieldTemplating } from "./templating";
import type { EarlierStep, TokenOption } from "@/lib/automations/review/tokens-for";

/** What every settings form of the config panel is given (see `NodeConfig`). */
export interface ConfigFormProps {
  definition: NodeDefinition;
  /** The params as they are now, edits included. */
  params: Record<string, unknown>;
  /** `paramErrors` of `params`: the first message per param, `""` for the whole step. */
  errors: Record<string, string>;
  triggerDomain: TriggerDomain | null;
  /** The flow's trigger node type (`auto.trigger.order_paid`), or null without one. */
  triggerType?: string | null;
  /** The tokens templated fields offer. */
  tokens: readonly TokenOption[];
  /** How templated fields check and preview their tokens as the merchant types. */
  templating: FieldTemplating;
  /** The steps that run before this one and what each hands on (a condition may check it). */
  earlierSteps?: readonly EarlierStep[];
  /**
   * The shop's time zone (its settings): what a step's zone starts on and is shown beside, never
   * the browser's. Default "UTC".
   */
  shopTimeZone?: string;
  /**
   * Params the panel shows elsewhere (a credential's picker, the step's own part: `StepForm`), which
   * the generic form leaves out.
   */
  shownElsewhere?: readonly string[];
  /** The step's note after a param's help, from the params as they are (`StepForm.paramNote`). */
  paramNote?(param: string, params: Record<string, unknown>): string | null;
  disabled: boolean;
  /** The complete new params after an edit. */
  onChange(params: Record<string, unknown>): void;
}
