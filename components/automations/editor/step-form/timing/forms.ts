import { approval } from "@/lib/automations/nodes/timing/approval";
import { wait } from "@/lib/automations/nodes/timing/wait";
import { waitForEvent } from "@/lib/automations/nodes/timing/wait-for-event";
import { waitUntil } from "@/lib/automations/nodes/timing/wait-until";
import type { StepForm } from "../step-form";
import { ApproversConfig } from "./approvers-config";
import { WaitConfig } from "./wait-config";
import { WaitForEventConfig } from "./wait-for-event-config";
import { WaitUntilConfig } from "./wait-until-config";

/** The waits' forms; an Approval's approvers and quorum are a section under the generic form. */
export const TIMING_FORMS: readonly StepForm[] = [
  { type: wait.type, Form: WaitConfig },
  { type: waitUntil.type, Form: WaitUntilConfig },
  { type: waitForEvent.type, Form: WaitForEventConfig },
  { type: approval.type, Part: ApproversConfig, partParams: ["approvers", "reject"] },
];
