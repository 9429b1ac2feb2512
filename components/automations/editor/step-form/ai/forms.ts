import { aiAction } from "@/lib/automations/nodes/ai/ai";
import type { StepForm } from "../step-form";
import { AiConfig } from "./ai-config";

/** AI: the generic form with a try on a record. */
export const AI_FORMS: readonly StepForm[] = [{ type: aiAction.type, Form: AiConfig }];
