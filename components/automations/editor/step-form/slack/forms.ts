import { slackAction } from "@/lib/automations/nodes/slack/slack";
import { idParam } from "../credential-options";
import type { StepForm } from "../step-form";

/** Post to Slack: the generic form and its webhook, which it cannot do without. */
export const SLACK_FORMS: readonly StepForm[] = [
  {
    type: slackAction.type,
    credential: {
      label: "Slack webhook",
      hint: "The channel's incoming webhook; its URL stays in Settings → Credentials.",
      kinds: ["slack_webhook"],
      required: true,
      params: ["credentialId"],
      read: (params) => idParam(params, "credentialId"),
      // The step cannot go without one: "" keeps the param, so its message ("choose the Slack webhook") shows.
      write: (params, id) => ({ ...params, credentialId: id }),
    },
  },
];
