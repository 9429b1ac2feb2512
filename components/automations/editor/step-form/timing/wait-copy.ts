import { hasRecord } from "@/lib/automations/nodes/registry";
import type { TriggerDomain } from "@/lib/automations/nodes/types";
import { DOMAIN_LABELS } from "@/lib/domains/domains";

/**
 * The sentences the timing forms explain themselves with. Pure, so the wording is tested and the
 * Playwright specs can rely on it.
 */

/**
 * What happens when a Wait ends. A run with a record reloads it then (SPEC §2 "On wake"), so
 * the sentence names the record; a run without one (webhook, schedule, later) simply carries on.
 * With no trigger yet the record is not known, and "record" stands in for it.
 */
export function waitHelp(domain: TriggerDomain | null): string {
  if (domain !== null && !hasRecord(domain)) {
    return "When the wait finishes the flow continues with the rest of its steps.";
  }
  const word = domain === null ? "record" : DOMAIN_LABELS[domain].one;
  return `When the wait finishes we look at the ${word} again — if it no longer matches the conditions after this step, the rest of the flow won't run.`;
}

/** How "Wait until" behaves across daylight-saving changes (see `nextWallClock` in `resume-at.ts`). */
export const WAIT_UNTIL_DST_HELP =
  "On days the clocks change, a time that is skipped resumes just after the gap, and a time that happens twice resumes at the first one.";

/** What leaving every weekday unticked means. */
export const WEEKDAYS_HELP = "Tick none to resume on any day.";
