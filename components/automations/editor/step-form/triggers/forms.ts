import { schedule, webhook } from "@/lib/automations/nodes/triggers/triggers";
import { idParam, without } from "../credential-options";
import type { StepForm } from "../step-form";
import { ScheduleConfig } from "./schedule-config";
import { WebhookSigning } from "./webhook-signing";

/** The triggers with more than the generic form: a schedule's builder, a webhook's signing. */
export const TRIGGER_FORMS: readonly StepForm[] = [
  { type: schedule.type, Form: ScheduleConfig },
  {
    type: webhook.type,
    credential: {
      label: "Signing secret",
      hint: "With a signing secret, only requests signed with it (HMAC) are accepted.",
      kinds: ["webhook_secret"],
      // A plain `secret` from an older client becomes a credential on save; the picker replaces its field.
      params: ["secretCredentialId", "secret"],
      read: (params) => idParam(params, "secretCredentialId"),
      write: (params, id) =>
        id
          ? { ...without(params, "secret"), secretCredentialId: id }
          : without(params, "secretCredentialId", "secret"),
    },
    After: WebhookSigning,
  },
];
