import { ApprovalStep } from "@/components/approvals/approval-step";
import { RelativeTime } from "@/components/ui/relative-time";
import type { Role } from "@/lib/identity/roles";
import { APPROVAL_NODE_TYPE } from "@/lib/automations/nodes/timing/approval.run";
import { EVENT_WAIT_NODE_TYPE, eventWaitFromStep } from "@/lib/automations/nodes/timing/wait-for-event.run";
import { cutMarkOf } from "@/lib/automations/nodes/outputs";
import { handleLabel } from "@/lib/automations/nodes/catalog";
import { SPLIT_NODE_TYPE } from "@/lib/automations/nodes/split/split-branches";
import type { RunStep, RunWait } from "@/lib/automations/runs/detail";
import { attemptsOf, groupByLeg, retryNote } from "@/lib/automations/runs/timeline";
import { formatDuration } from "./duration";
import { EventWaitStep } from "./event-wait-step";
import { JsonBlock } from "./json-block";
import { StepStatusBadge } from "./run-status";
import { ClockTime } from "./waiting-line";

type Attempt = { attempt: number; of: number };

/**
 * Every step of every leg, grouped by leg under a merchant's heading ("From the trigger", "After the
 * wait"): one leg from the trigger, one more per resumed wait. A
 * step is keyed by node id and occurrence, since a node can run once in each leg.
 */
export function RunTimeline({
  steps,
  waits = [],
  role = "viewer",
}: {
  steps: RunStep[];
  /** The run's waits, for what an Approval step asked and how it was decided. */
  waits?: RunWait[];
  /** The signed-in role: who may decide a pending approval here. Default viewer (no buttons). */
  role?: Role;
}) {
  const waitByStep = new Map(waits.flatMap((wait) => (wait.stepId ? [[wait.stepId, wait] as const] : [])));
  if (steps.length === 0)
    return (
      <p className="px-5 py-4 text-sm text-zinc-600">No step has run yet: the run is queued for a worker.</p>
    );
  const attempts = attemptsOf(steps);
  return (
    <div className="divide-y divide-zinc-100">
      {groupByLeg(steps).map(({ leg, title, steps: legSteps }) => (
        <section key={leg} aria-labelledby={`leg-${leg}`} className="px-5 py-4" data-testid="run-leg">
          <h3 id={`leg-${leg}`} className="mb-3 text-xs font-semibold tracking-wide text-zinc-500 uppercase">
            {title}
          </h3>
          <ol className="space-y-3">
            {legSteps.map((step) => (
              <StepItem
                key={step.key}
                step={step}
                attempt={attempts.get(step.key)}
                wait={waitByStep.get(step.id) ?? null}
                role={role}
              />
            ))}
          </ol>
        </section>
      ))}
    </div>
  );
}

/**
 * A step; a retried action's attempts say which they were and when the next one is due, and an
 * approval shows what was asked and how it was decided.
 */
function StepItem({
  step,
  attempt,
  wait,
  role,
}: {
  step: RunStep;
  attempt: Attempt | undefined;
  wait: RunWait | null;
  role: Role;
}) {
  const note = retryNote(step.output);
  const cut = cutMarkOf(step.output);
  return (
    <li
      className="rounded-lg border border-zinc-200 px-4 py-3"
      data-testid="run-step"
      data-step-key={step.key}
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <span className="font-medium text-zinc-900" title={`Step id: ${step.nodeId}`}>
          {step.label}
        </span>
        {attempt ? (
          <span className="text-xs text-zinc-600">
            attempt {attempt.attempt} of {attempt.of}
          </span>
        ) : (
          step.occurrence > 1 && (
            <span className="text-xs text-zinc-600">run {step.occurrence} of this step</span>
          )
        )}
        <StepStatusBadge status={step.status} />
        <span className="ml-auto text-xs text-zinc-500">
          <RelativeTime value={step.startedAt} />
          {step.durationMs !== null && <> · {formatDuration(step.durationMs)}</>}
        </span>
      </div>
      {step.nodeType === APPROVAL_NODE_TYPE && <ApprovalStep step={step} wait={wait} role={role} />}
      {step.nodeType === EVENT_WAIT_NODE_TYPE && <EventWaitStep step={step} />}
      {step.why && (
        <p className="mt-2 text-sm text-zinc-700" data-testid="condition-why">
          <span className="font-medium">Why: </span>
          {step.why.text}, so it went {handleLabel(step.output?.result === true ? "true" : "false")}.
        </p>
      )}
      {/* A split says which branch and why: "Group B, 40 % of customers — the same customer always…". */}
      {step.nodeType === SPLIT_NODE_TYPE && step.reason && (
        <p className="mt-2 text-sm text-zinc-700" data-testid="split-branch">
          <span className="font-medium">Branch: </span>
          {step.reason}
        </p>
      )}
      {/* A wait for an event says what came in its own words, above; its reason names the event's type. */}
      {step.reason &&
        step.nodeType !== SPLIT_NODE_TYPE &&
        !note &&
        !(step.nodeType === EVENT_WAIT_NODE_TYPE && eventWaitFromStep(step)) && (
          <p className="mt-2 text-sm text-zinc-700">
            <span className="font-medium">{step.status === "skipped" ? "Why skipped: " : "Note: "}</span>
            {step.reason}
          </p>
        )}
      {step.error && (
        <p className="mt-2 text-sm text-red-700">
          <span className="font-medium">Error: </span>
          {step.error}
        </p>
      )}
      {note && (
        // The engine's reason ("Retry 2 of 3 at 14:05 UTC.") says this in UTC; here the time is the viewer's.
        <p className="mt-2 text-sm text-zinc-700" data-testid="retry-note">
          <span className="font-medium">Retry: </span>
          attempt {note.next} of {note.of} at <ClockTime value={note.at} />
        </p>
      )}
      {cut && (
        // Held to the limits of what a step hands on: "The answer was larger than 16 KB; only part of it was kept."
        <p className="mt-2 text-sm text-amber-800" data-testid="cut-note">
          <span className="font-medium">Cut: </span>
          {cut.note}
        </p>
      )}
      <JsonBlock label="Input" value={step.input} />
      <JsonBlock label="Output" value={step.output} />
    </li>
  );
}
