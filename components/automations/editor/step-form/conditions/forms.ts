import { fieldCondition } from "@/lib/automations/nodes/conditions/field";
import type { StepForm } from "../step-form";
import { FieldConditionConfig } from "./field-condition-config";

/** Check a field: its field list, operators by the field's kind, its value. */
export const CONDITION_FORMS: readonly StepForm[] = [
  { type: fieldCondition.type, Form: FieldConditionConfig },
];
