import { split } from "@/lib/automations/nodes/split/split";
import type { StepForm } from "../step-form";
import { SplitConfig } from "./split-config";

/** Split: its branches, their names and weights. */
export const SPLIT_FORMS: readonly StepForm[] = [{ type: split.type, Form: SplitConfig }];
