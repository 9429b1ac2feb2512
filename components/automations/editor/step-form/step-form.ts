import type { ComponentType } from "react";
import type { CredentialSlot } from "./credential-options";
import type { ConfigFormProps } from "./form-props";

/** What a form part below the step's form is given: its params, their errors, and the edit out. */
export interface StepFormPartProps {
  params: Record<string, unknown>;
  errors: Record<string, string>;
  disabled: boolean;
  onChange(params: Record<string, unknown>): void;
}

/**
 * What a step brings to its settings panel beyond the generic form, registered in its folder
 * under `step-form/<step>/` (`forms.ts`) and found by `registry.ts`: nothing here names a type
 * but by its definition. A step without an entry gets the generic form (`ParamForm`) alone.
 */
export interface StepForm {
  /** The step's type, read from its definition (`wait.type`), never written out. */
  type: string;
  /** Its own form in place of the generic one. */
  Form?: ComponentType<ConfigFormProps>;
  /** The credential it chooses, shown under the form (`credential-picker.tsx`). */
  credential?: CredentialSlot;
  /** Its params with a section of their own under the form (an Approval's approvers). */
  Part?: ComponentType<StepFormPartProps>;
  /** Params the generic form leaves out: the ones `Part` stands for. */
  partParams?: readonly string[];
  /** What the panel shows after the form, outside of it (a webhook's signed request example). */
  After?: ComponentType<{ params: Record<string, unknown> }>;
  /**
   * A note added to a param's help in the generic form, from the params as they are (an HTTP
   * step's headers that a save will store as a credential); null: none.
   */
  paramNote?(param: string, params: Record<string, unknown>): string | null;
}
