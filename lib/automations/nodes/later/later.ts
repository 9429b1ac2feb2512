import { z } from "zod";
import { describeDuration, DURATION_PATTERN } from "../duration";
import { line, paramsObject, text } from "../params";
import { text as shown, when } from "../sentences";
import { later as laterTrigger } from "../triggers/triggers";
import type { FlowReview, NodeDefinition, ReviewedStep } from "../types";

export const LATER_MIN_MS = 60_000;
export const LATER_MAX_MS = 90 * 86_400_000;
export const LATER_THEN_MAX_BYTES = 16_000;

const isoInstant = z.iso.datetime({ offset: true });

const laterParams = paramsObject({
  when: text()
    .trim()
    .refine((v) => DURATION_PATTERN.test(v) || isoInstant.safeParse(v).success, {
      message: "must be a duration such as 30m, 2h or 3d, or a time such as 2026-12-24T09:00:00+01:00",
    }),
  step: line(100),
  key: text().trim().max(200, "is longer than 200 characters").optional(),
  then: z
    .record(z.string(), z.unknown())
    .default({})
    .refine((v) => JSON.stringify(v).length <= LATER_THEN_MAX_BYTES, {
      message: "must be at most 16 KB of JSON",
    }),
});

/** SPEC §2 "Later steps": ask for this automation to run again at a time, handing back `then`. */
/** A Later step needs a Later trigger of the same name in its flow to start its run. */
function needsLaterTrigger({ params }: ReviewedStep, { steps }: FlowReview): string[] {
  if (typeof params?.step !== "string") return [];
  const started = steps.some(
    (other) => other.node.type === laterTrigger.type && other.params?.step === params.step,
  );
  return started
    ? []
    : [`No Later trigger in this flow starts at step '${params.step}'; add one with that name.`];
}

export const laterAction = {
  type: "auto.action.later" as const,
  category: "action",
  // An action to the engine (it writes a keyed follow-up), a timing step to the merchant.
  paletteTiming: true,
  label: "Run later",
  description:
    "Runs this automation again later: the Later trigger with the same step name starts a new run, handed back what you put in 'then'. A key replaces the later step already waiting under it.",
  params: laterParams,
  defaultParams: () => ({ when: "3d", step: "follow-up", then: {} }),
  handles: { in: true, out: ["out"] },
  templated: ["key"],
  summarise: ({ when, step }) =>
    DURATION_PATTERN.test(when) ? `Run '${step}' in ${describeDuration(when)}` : `Run '${step}' at ${when}`,
  review: needsLaterTrigger,
  describeDryRun: (request, { timeZone }) => {
    const detail = [
      `Would run this automation again from step '${shown(request.step)}' at ${when(request.due, timeZone)}.`,
    ];
    if (typeof request.key === "string")
      detail.push(`It would replace any later step waiting under the key '${request.key}'.`);
    return detail;
  },
} satisfies NodeDefinition<typeof laterParams>;
