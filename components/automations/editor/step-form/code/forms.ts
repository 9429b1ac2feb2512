import { codeAction } from "@/lib/automations/nodes/code/code";
import type { StepForm } from "../step-form";
import { CodeConfig } from "./code-config";

/** Run code: the script editor and its preview on a record. */
export const CODE_FORMS: readonly StepForm[] = [{ type: codeAction.type, Form: CodeConfig }];
