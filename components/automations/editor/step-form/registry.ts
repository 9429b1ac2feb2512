import { AI_FORMS } from "./ai/forms";
import { CODE_FORMS } from "./code/forms";
import { CONDITION_FORMS } from "./conditions/forms";
import { HTTP_REQUEST_FORMS } from "./http-request/forms";
import { SLACK_FORMS } from "./slack/forms";
import { SPLIT_FORMS } from "./split/forms";
import type { StepForm } from "./step-form";
import { STORE_FORMS } from "./store/forms";
import { TIMING_FORMS } from "./timing/forms";
import { TRIGGER_FORMS } from "./triggers/forms";

/**
 * The steps' forms, by type: each folder under `step-form/` registers its steps' in its
 * `forms.ts`, and this list holds one line a folder (docs/adding-a-step.md). A step not here gets
 * the generic form from its params schema.
 */
const FOLDERS: readonly (readonly StepForm[])[] = [
  TRIGGER_FORMS,
  CONDITION_FORMS,
  SPLIT_FORMS,
  HTTP_REQUEST_FORMS,
  SLACK_FORMS,
  AI_FORMS,
  CODE_FORMS,
  STORE_FORMS,
  TIMING_FORMS,
];

const STEP_FORMS: ReadonlyMap<string, StepForm> = new Map(FOLDERS.flat().map((form) => [form.type, form]));

/** What the step of `type` brings to its panel beyond the generic form; undefined: nothing. */
export function stepForm(type: string): StepForm | undefined {
  return STEP_FORMS.get(type);
}

/** Every registered form (for the registry's own test). */
export function stepForms(): readonly StepForm[] {
  return [...STEP_FORMS.values()];
}
