/**
 * In-flight policies (SPEC §2): what a run parked on a wait does when it wakes after a newer
 * version was published. Browser-safe, so the editor's settings explain each choice.
 */
export const IN_FLIGHT_POLICIES = ["cancel", "finish_on_started_version", "move_to_latest"] as const;
export type InFlightPolicy = (typeof IN_FLIGHT_POLICIES)[number];

/**
 * The policy of an automation made in the admin (blank, template, AI builder): an edit never
 * throws away the people already in the flow, as in Klaviyo and Shopify Flow (issue 49). The
 * API's `POST /api/v1/automations` without `inFlightPolicy` keeps SPEC's `cancel` for the clients
 * written against it.
 */
export const NEW_AUTOMATION_POLICY: InFlightPolicy = "finish_on_started_version";

/** What happens to a waiting run on wake after a publish, per policy (ends an impact sentence). */
export const POLICY_SENTENCES: Record<InFlightPolicy, string> = {
  cancel: "with the current policy they will be cancelled when they wake.",
  finish_on_started_version: "with the current policy they will finish on the version they started with.",
  move_to_latest:
    "with the current policy they will continue on the new version if their step still exists there.",
};

/** The choice as the automation's settings offer it: a name and a sentence on what it does. */
export const POLICY_CHOICES: Record<InFlightPolicy, { label: string; explanation: string }> = {
  cancel: {
    label: "Cancel waiting runs",
    explanation:
      "Runs that were waiting when you publish a new version stop when they wake; nothing more happens to them.",
  },
  finish_on_started_version: {
    label: "Finish on the version they started with",
    explanation:
      "Runs that were waiting carry on with the steps they started with, even after you publish changes.",
  },
  move_to_latest: {
    label: "Move to the latest version",
    explanation:
      "Runs that were waiting continue on the newest version from the same step; if that step was removed, they are cancelled.",
  },
};
