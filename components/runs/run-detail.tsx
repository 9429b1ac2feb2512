"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Card, CardHeader } from "@/components/ui/card";
import { DescriptionList } from "@/components/ui/description-list";
import { Notice } from "@/components/ui/notice";
import { PageHeader } from "@/components/ui/page-header";
import { RelativeTime } from "@/components/ui/relative-time";
import { hasRole, type Role } from "@/lib/identity/roles";
import type { RunDetail as RunDetailData } from "@/lib/automations/runs/detail";
import { formatDuration } from "./duration";
import { HandedBack } from "./handed-back";
import { EntityLink } from "./entity-link";
import { TimesOutIn } from "@/components/approvals/times-out-in";
import { fetchJson, POLL_MS } from "./fetch-json";
import { LiveStatus } from "./live-status";
import { parseSubActionId } from "@/lib/automations/engine/sub-action";
import { isRerunnable } from "@/lib/automations/runs/rerunnable";
import { waitingForEvent } from "@/lib/automations/nodes/timing/wait-for-event.run";
import { RerunButton } from "./rerun-button";
import { RunPath } from "./run-path";
import { RunStatusBadge, TERMINAL_RUN_STATUSES } from "./run-status";
import { FullRunId } from "./run-link";
import { RunTimeline } from "./run-timeline";
import { RunWaits } from "./run-waits";
import { WaitingLine } from "./waiting-line";

/**
 * One run, live: it polls the run API until the run has ended, so a Resume now (here or anywhere)
 * shows its outcome without a reload.
 */
export function RunDetail({ initial, role }: { initial: RunDetailData; role: Role }) {
  const canEdit = hasRole(role, "editor");
  const { data: run, error } = useQuery({
    queryKey: ["run", initial.id],
    queryFn: () => fetchJson<RunDetailData>(`/api/v1/runs/${initial.id}`),
    initialData: initial,
    refetchInterval: (query) => (TERMINAL_RUN_STATUSES.has(query.state.data?.status ?? "") ? false : POLL_MS),
  });
  const name = run.automationName ?? "Deleted automation";
  const asking = run.awaitingApproval
    ? run.waits.find((wait) => wait.approval?.state === "pending")?.approval
    : undefined;
  const listening = run.status === "waiting" && !asking ? waitingForEvent(run) : null;
  return (
    <>
      <PageHeader
        back={{ href: "/runs", label: "Runs" }}
        title={`Run of ${name}`}
        meta={
          <RunStatusBadge
            status={run.status}
            awaitingApproval={run.awaitingApproval}
            actionsTaken={run.actionsTaken}
          />
        }
        actions={
          canEdit && isRerunnable(run.status) ? (
            <RerunButton target={{ kind: "run", runId: run.id, failedStep: failedStepLabel(run) }} />
          ) : undefined
        }
        description={
          <>
            <FullRunId runId={run.id} />
            {run.status === "waiting" && run.fate?.continues === false ? (
              <>
                {" · "}
                <WaitingLine run={run} />
              </>
            ) : asking?.timesOutAt ? (
              <>
                {" · "}
                Waiting for a decision: {asking.title} · <TimesOutIn value={asking.timesOutAt} />
              </>
            ) : listening?.timesOutAt ? (
              <>
                {" · "}
                Waiting for {listening.eventName}
                {listening.matchText} · <TimesOutIn value={listening.timesOutAt} brief />
              </>
            ) : (
              run.status === "waiting" &&
              run.resumeAt && (
                <>
                  {" · "}
                  <WaitingLine run={run} />
                </>
              )
            )}
          </>
        }
      />
      {run.status === "cancelled" && run.reason && (
        <Notice tone="info" title="Why this run was cancelled" className="mb-4">
          <span data-testid="run-reason">{run.reason}</span>
        </Notice>
      )}
      {run.status === "held_out" && run.reason && (
        <Notice tone="info" title="Held out on purpose" className="mb-4">
          <span data-testid="run-reason">{run.reason}</span>
        </Notice>
      )}
      {run.status === "held" && run.reason && (
        <Notice tone="warning" title="Held by a cap" className="mb-4">
          <span data-testid="run-reason">{run.reason}</span>{" "}
          <Link href={`/automations/${run.automationId}/held`} className="font-medium underline">
            Release or discard it in the Held list
          </Link>
          .
        </Notice>
      )}
      <OutcomeNotice run={run} />
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="min-w-0 space-y-6 lg:col-span-2">
          <Card>
            <CardHeader title="Timeline" description={stepsSentence(run.steps.length, run.legs)} />
            <RunTimeline steps={run.steps} waits={run.waits} role={role} />
            {!TERMINAL_RUN_STATUSES.has(run.status) && <LiveStatus error={error} />}
          </Card>
          <Card>
            <CardHeader
              title="Waits"
              description="Each pause of this run: what it waited for, and how it ended."
            />
            <RunWaits waits={run.waits} canEdit={canEdit} isAdmin={hasRole(role, "admin")} />
          </Card>
        </div>
        <div className="min-w-0 space-y-6">
          <Card>
            <CardHeader title="Details" />
            <div className="px-5 py-4">
              <DescriptionList
                columns={1}
                items={[
                  {
                    term: "Automation",
                    detail: run.automationName ? (
                      <Link
                        href={`/automations/${run.automationId}/runs`}
                        className="underline-offset-2 hover:underline"
                      >
                        {run.automationName}
                      </Link>
                    ) : (
                      name
                    ),
                  },
                  { term: "Version", detail: `v${run.automationVersion}` },
                  {
                    term: "Entity",
                    detail: (
                      <EntityLink
                        domain={run.domain}
                        id={run.entityId}
                        label={run.entityLabel ?? undefined}
                      />
                    ),
                  },
                  { term: "Trigger", detail: <span className="font-mono text-xs">{run.eventType}</span> },
                  { term: "Started", detail: <RelativeTime value={run.startedAt ?? run.createdAt} /> },
                  {
                    term: "Finished",
                    detail: run.finishedAt ? <RelativeTime value={run.finishedAt} /> : "Not yet",
                  },
                  { term: "Duration", detail: formatDuration(run.durationMs) },
                  ...(run.rerunOf
                    ? [
                        {
                          term: "Re-run of",
                          detail: (
                            <Link
                              href={`/runs/${run.rerunOf}`}
                              className="underline-offset-2 hover:underline"
                            >
                              {run.rerunFrom
                                ? `an earlier run, from '${run.rerunFrom.label}'`
                                : "an earlier run"}
                            </Link>
                          ),
                        },
                      ]
                    : []),
                  ...(run.reruns.length > 0
                    ? [
                        {
                          term: "Re-run as",
                          detail: (
                            <ul className="space-y-1">
                              {run.reruns.map((r) => (
                                <li key={r.id} className="flex items-center gap-2">
                                  <Link href={`/runs/${r.id}`} className="underline-offset-2 hover:underline">
                                    <RelativeTime value={r.createdAt} brief />
                                  </Link>
                                  <RunStatusBadge status={r.status} actionsTaken={r.actionsTaken} />
                                </li>
                              ))}
                            </ul>
                          ),
                        },
                      ]
                    : []),
                ]}
              />
            </div>
          </Card>
          <HandedBack event={run.event} />
          <Card>
            <CardHeader title="Path taken" description={pathDescription(run)} />
            <div className="px-5 py-4">
              <RunPath graph={run.graph} nodeStatuses={run.nodeStatuses} steps={run.steps} />
            </div>
          </Card>
        </div>
      </div>
    </>
  );
}

/**
 * What the run's outcome needs said above its timeline: why nothing was done, what failed — or,
 * once a re-run of it succeeded, that it did (the failure is then history, not a call to act).
 */
function OutcomeNotice({ run }: { run: RunDetailData }) {
  if (run.status === "succeeded" && run.actionsTaken === 0) {
    return (
      <Notice tone="info" title="Nothing to do" className="mb-4">
        <span data-testid="run-nothing-to-do">
          {run.stoppedAt.length > 0
            ? run.stoppedAt
                .map((c) =>
                  c.why
                    ? `Stopped at “${c.label}”: ${c.why.text}.`
                    : `Stopped at “${c.label}”: it was ${c.result ? "true" : "false"}.`,
                )
                .join(" ")
            : "No step of this run needed an action."}{" "}
          No action was taken, so this run is left out of the success rate.
        </span>
      </Notice>
    );
  }
  if (!run.error || (run.status !== "failed" && run.status !== "partial")) return null;
  const fixed = [...run.reruns].reverse().find((r) => r.status === "succeeded");
  if (fixed) {
    return (
      <Notice tone="success" title="A re-run of this run succeeded" className="mb-4">
        <span data-testid="run-rerun-succeeded">
          <Link href={`/runs/${fixed.id}`} className="font-medium underline underline-offset-2">
            Open the re-run
          </Link>{" "}
          (started <RelativeTime value={fixed.createdAt} />
          ). What went wrong here: {run.error}
        </span>
      </Notice>
    );
  }
  return (
    <Notice
      tone="error"
      title={run.status === "failed" ? "This run failed" : "Some actions failed"}
      className="mb-4"
    >
      {run.error}
    </Notice>
  );
}

/** The step a re-run "from the failed step" starts at, as drawn: a code step's action → the code step. */
function failedStepLabel(run: RunDetailData): string | null {
  const failed = run.steps.find((s) => s.status === "failed");
  if (!failed) return null;
  const parent = parseSubActionId(failed.nodeId)?.nodeId;
  return (parent ? run.steps.find((s) => s.nodeId === parent)?.label : null) ?? failed.label;
}

/** "3 steps, resumed once after a wait." — a leg is our word, not the merchant's. */
function stepsSentence(steps: number, legs: number): string {
  const count = steps === 1 ? "1 step" : `${steps} steps`;
  const resumes = legs - 1;
  if (resumes < 1) return `${count}.`;
  return `${count}, resumed ${resumes === 1 ? "once" : `${resumes} times`} after a wait.`;
}

/** Which version the path is drawn on: the run's own, or the one it moves to when it wakes. */
function pathDescription(run: Pick<RunDetailData, "automationVersion" | "graphVersion">): string {
  if (run.graphVersion !== null && run.graphVersion !== run.automationVersion) {
    return `Version ${run.graphVersion} of the flow, which this run moves to when it wakes (it was on version ${run.automationVersion}).`;
  }
  return `Version ${run.automationVersion} of the flow, as this run went through it.`;
}
