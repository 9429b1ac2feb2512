import type { RefObject } from "react";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import type { Graph } from "@/lib/automations/graph/schema";
import type { InFlightPolicy } from "@/lib/automations/lifecycle/policies";
import { Backtest } from "../panel/backtest";
import { PolicyChoice, WAITS_KEEP_THEIR_TIME } from "./policy-choice";
import type { Done, Impact } from "./publish-form-state";

/** The draft is the active version already: nothing to publish, only a way out. */
export function NothingToPublish({
  titleId,
  version,
  paused,
  onClose,
}: {
  titleId: string;
  version: number;
  paused: boolean;
  onClose(): void;
}) {
  return (
    <div className="p-6">
      <h2 id={titleId} className="text-base font-semibold">
        Nothing to publish
      </h2>
      <p className="mt-1 text-sm text-zinc-600">
        Nothing to publish: the draft is the same as version {version}.
        {paused && " Turn the automation on to run it again."}
      </p>
      <div className="mt-6 flex justify-end">
        <Button variant="primary" onClick={onClose}>
          Close
        </Button>
      </div>
    </div>
  );
}

/** The server's yes: which version runs now and what happens to the runs that were waiting. */
export function PublishDone({
  titleId,
  done,
  name,
  closeRef,
  onClose,
}: {
  titleId: string;
  done: Done;
  name: string;
  closeRef: RefObject<HTMLButtonElement | null>;
  onClose(): void;
}) {
  return (
    <div className="p-6">
      <h2 id={titleId} className="text-base font-semibold">
        {done.published ? `Version ${done.version} is published` : "Nothing new to publish"}
      </h2>
      <Notice tone={done.published ? "success" : "info"} className="mt-4">
        <p>
          {done.published
            ? `'${name}' now runs version ${done.version}.`
            : `Version ${done.version} already has these steps, so no new version was made. The automation is on.`}
        </p>
        <p className="mt-1">{done.message}</p>
      </Notice>
      <div className="mt-6 flex justify-end">
        <Button ref={closeRef} variant="primary" onClick={onClose}>
          Close
        </Button>
      </div>
    </div>
  );
}

export type Changes = { kind: "first" } | { kind: "none" } | { kind: "lines"; lines: string[] };

/** "What changes": the steps' differences from the active version, in sentences. */
export function PublishChanges({
  titleId,
  changes,
  version,
}: {
  titleId: string;
  changes: Changes;
  version: number;
}) {
  return (
    <section aria-labelledby={`${titleId}-changes`} className="mt-5">
      <h3 id={`${titleId}-changes`} className="text-sm font-medium text-zinc-800">
        What changes
      </h3>
      {changes.kind === "first" && <p className="mt-1 text-sm text-zinc-600">This is the first version.</p>}
      {changes.kind === "none" && (
        <p className="mt-1 text-sm text-zinc-600">No changes to the steps since version {version}.</p>
      )}
      {changes.kind === "lines" && (
        <ul className="mt-1.5 list-disc space-y-1 pl-5 text-sm text-zinc-700">
          {changes.lines.map((line, i) => (
            <li key={`${i}-${line}`}>{line}</li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** "On real runs": what the new version would have done on the latest runs, nothing sent. */
export function PublishBacktest({
  titleId,
  automationId,
  next,
  draftGraph,
}: {
  titleId: string;
  automationId: string;
  next: number;
  draftGraph: Graph;
}) {
  return (
    <section aria-labelledby={`${titleId}-backtest`} className="mt-5">
      <h3 id={`${titleId}-backtest`} className="text-sm font-medium text-zinc-800">
        On real runs
      </h3>
      <p className="mt-1 mb-2 text-sm text-zinc-600">
        What version {next} would have done on the latest runs, with nothing sent.
      </p>
      <Backtest automationId={automationId} getGraph={() => draftGraph} />
    </section>
  );
}

/** "Runs waiting now": what publishing does to them, and the policy that decides it. */
export function RunsWaiting({
  titleId,
  impact,
  policy,
  onPolicyChange,
  disabled,
}: {
  titleId: string;
  impact: Impact;
  policy: InFlightPolicy;
  /** Absent when there is no choice to make (a first version, or a caller that does not offer it). */
  onPolicyChange?: (policy: InFlightPolicy) => void;
  disabled: boolean;
}) {
  return (
    <section aria-labelledby={`${titleId}-waiting`} className="mt-5">
      <h3 id={`${titleId}-waiting`} className="text-sm font-medium text-zinc-800">
        Runs waiting now
      </h3>
      <p className="mt-1 text-sm text-zinc-600" aria-live="polite" data-testid="publish-impact">
        {impact.state === "loading" && "Checking the runs that are waiting…"}
        {impact.state === "ready" && impact.message}
        {impact.state === "failed" && `Could not check the runs that are waiting: ${impact.error}`}
      </p>
      {impact.state === "ready" && impact.waitingRuns > 0 && (
        <p className="mt-1 text-sm text-zinc-600" data-testid="waits-keep-time">
          {WAITS_KEEP_THEIR_TIME}
        </p>
      )}
      {onPolicyChange && (
        <PolicyChoice
          legend="When runs that are waiting wake up"
          value={policy}
          onChange={onPolicyChange}
          disabled={disabled}
        />
      )}
    </section>
  );
}
