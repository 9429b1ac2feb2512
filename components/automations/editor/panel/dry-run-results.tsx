"use client";

import { useId } from "react";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";
import { Notice } from "@/components/ui/notice";
import { RelativeTime } from "@/components/ui/relative-time";
import { EmailPreview } from "@/components/outbox/email-preview";
import type { DryRunResult, DryRunStep } from "@/lib/automations/dry-run/result";
import { groupByLeg } from "@/lib/automations/runs/timeline";
import { outcomeText } from "./panel-text";

/** The server's own first note says what the notice above the steps already says. */
const SERVER_DRY_RUN_NOTE = "Nothing was saved or sent: this was a dry run.";

const OUTCOME_TONES: Record<DryRunStep["outcome"], BadgeTone> = {
  started: "info",
  true: "success",
  false: "warning",
  branch: "success",
  would_run: "success",
  would_wait: "neutral",
  would_skip: "warning",
  error: "danger",
};

/** The steps of a dry run, leg by leg, with each outcome in words, then its notes. */
export function DryRunResults({ result }: { result: DryRunResult }) {
  const idPrefix = useId();
  const legs = groupByLeg(result.steps);
  const notes = result.notes.filter((note) => note !== SERVER_DRY_RUN_NOTE);
  return (
    <div className="space-y-4">
      <Notice tone="info">
        <p>Nothing was changed — this is a dry run.</p>
        {result.entity && <p className="mt-1">Tried on {result.entity.label}.</p>}
      </Notice>

      {legs.length === 0 && <p className="text-sm text-zinc-600">No step would run.</p>}

      {legs.map((leg) => (
        <section key={leg.leg} aria-labelledby={`${idPrefix}-leg-${leg.leg}`}>
          <h3
            id={`${idPrefix}-leg-${leg.leg}`}
            className="text-xs font-medium tracking-wide text-zinc-500 uppercase"
          >
            {leg.title}
          </h3>
          <ol className="mt-1.5 space-y-2">
            {leg.steps.map((step, i) => (
              <StepResult key={`${step.nodeId}-${i}`} step={step} />
            ))}
          </ol>
        </section>
      ))}

      {notes.length > 0 && (
        <section aria-labelledby={`${idPrefix}-notes`}>
          <h3 id={`${idPrefix}-notes`} className="text-xs font-medium tracking-wide text-zinc-500 uppercase">
            Notes
          </h3>
          <ul className="mt-1.5 list-disc space-y-1 pl-5 text-sm text-zinc-700">
            {notes.map((note, i) => (
              <li key={`${i}-${note}`}>{note}</li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

function StepResult({ step }: { step: DryRunStep }) {
  const resumeAt = step.outcome === "would_wait" && step.resumeAt ? new Date(step.resumeAt) : null;
  const params =
    step.resolvedParams && Object.keys(step.resolvedParams).length > 0 ? step.resolvedParams : null;
  return (
    <li
      className={cn(
        "rounded-lg border px-3 py-2",
        step.outcome === "error" ? "border-red-200 bg-red-50/50" : "border-zinc-200 bg-white",
      )}
    >
      <div className="flex flex-wrap items-start justify-between gap-x-2 gap-y-1">
        <p className="min-w-0 text-sm font-medium break-words text-zinc-900">
          {step.summary || step.label}
          {step.summary && step.summary !== step.label && (
            <span className="block text-xs font-normal text-zinc-500">{step.label}</span>
          )}
        </p>
        <Badge tone={OUTCOME_TONES[step.outcome]}>{outcomeText(step.outcome)}</Badge>
      </div>
      {resumeAt && !Number.isNaN(resumeAt.getTime()) && (
        <p className="mt-1 text-xs text-zinc-600">
          until <RelativeTime value={resumeAt} />
        </p>
      )}
      {/* An email's one detail line ("Would email …: subject …") is what its card below shows. */}
      {step.detail.length > 0 && !step.email && (
        <ul className="mt-1 space-y-0.5 text-xs break-words text-zinc-700">
          {step.detail.map((line, i) => (
            <li key={`${i}-${line}`}>{line}</li>
          ))}
        </ul>
      )}
      {step.email && (
        <div className="mt-2 text-xs text-zinc-700">
          <p className="break-words">
            <span className="font-medium text-zinc-900">To:</span> {step.email.to}
          </p>
          <p className="break-words">
            <span className="font-medium text-zinc-900">Subject:</span> {step.email.subject}
          </p>
          {/* The body as the recipient would see it, not its HTML source; sandboxed, so it can never act. */}
          <EmailPreview subject={step.email.subject} html={step.email.html} />
        </div>
      )}
      {step.error && (
        <p className="mt-1 text-xs break-words text-red-800">
          <span className="font-semibold">Error:</span> {step.error}
        </p>
      )}
      {params && (
        <details className="mt-1.5 text-xs">
          <summary className="cursor-pointer rounded text-zinc-600 hover:text-zinc-900 focus-visible:outline-2 focus-visible:outline-indigo-600">
            Resolved params
          </summary>
          <pre className="mt-1 max-h-48 overflow-auto rounded bg-zinc-50 p-2 font-mono text-[11px] whitespace-pre-wrap text-zinc-800">
            {JSON.stringify(params, null, 2)}
          </pre>
        </details>
      )}
    </li>
  );
}
