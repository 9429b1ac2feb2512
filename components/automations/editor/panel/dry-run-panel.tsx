"use client";

import { reach } from "@/components/ui/hooks/use-server-action";
import { useId, useRef, useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { FieldHint, Label } from "@/components/ui/form";
import { dryRunAction } from "@/lib/actions/automations/dry-run";
import type { DryRunResult } from "@/lib/automations/dry-run/result";
import type { Graph } from "@/lib/automations/graph/schema";
import { DOMAIN_LABELS, isDomain } from "@/lib/domains/domains";
import { DryRunResults } from "./dry-run-results";
import { parsePayload } from "./panel-text";
import { RecordPicker, type EntityOption } from "./record-picker";
import { FailureNotice, type Failure } from "./failure-notice";

export interface DryRunPanelProps {
  automationId: string;
  /** "order", "customer", … or "webhook"/"schedule"/null: no record to pick, only the payload box. */
  triggerDomain: string | null;
  /** The editor's current graph (may be unsaved). */
  getGraph(): Graph;
  /** The canvas highlights `result.path`; null clears it. */
  onResult(result: DryRunResult | null): void;
}

/**
 * Try the flow on the canvas (saved or not) without doing anything: pick a real record of the
 * trigger's kind and/or paste the event's payload, run, and read what each step would do, leg by
 * leg. The canvas highlights the path through `onResult`.
 */
export function DryRunPanel({ automationId, triggerDomain, getGraph, onResult }: DryRunPanelProps) {
  const domain = triggerDomain && isDomain(triggerDomain) ? triggerDomain : null;
  const headingId = useId();
  const payloadId = useId();
  const payloadHintId = useId();
  const payloadErrorId = useId();
  const [record, setRecord] = useState<EntityOption | null>(null);
  const [payloadText, setPayloadText] = useState("");
  const [payloadError, setPayloadError] = useState<string | null>(null);
  const [result, setResult] = useState<DryRunResult | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [pending, startTransition] = useTransition();
  const payloadRef = useRef<HTMLTextAreaElement>(null);

  function run() {
    setFailure(null);
    const parsed = parsePayload(payloadText);
    if (!parsed.ok) {
      setPayloadError(parsed.error);
      payloadRef.current?.focus();
      return;
    }
    setPayloadError(null);
    const graph = getGraph();
    startTransition(async () => {
      const answer = await reach(
        dryRunAction({
          automationId,
          graph,
          ...(domain && record ? { entityId: record.id } : {}),
          ...(parsed.payload ? { payload: parsed.payload } : {}),
        }),
      );
      if (!answer.ok) {
        const issues = answer.code === "invalid" ? (answer.issues ?? []).map((i) => i.message) : [];
        setFailure({
          title: "The dry run did not run",
          text: issues.length > 0 ? "Fix these first:" : answer.error,
          issues,
        });
        setResult(null);
        onResult(null);
        return;
      }
      setResult(answer.data);
      onResult(answer.data);
    });
  }

  function clear() {
    setResult(null);
    setFailure(null);
    setPayloadError(null);
    onResult(null);
  }

  return (
    <section aria-labelledby={headingId} className="space-y-4">
      <div>
        <h2 id={headingId} className="text-sm font-semibold text-zinc-900">
          Dry run
        </h2>
        <p className="mt-1 text-sm text-zinc-600">
          Try the flow as it is on the canvas, saved or not. Nothing is changed, sent or saved.
        </p>
      </div>

      <form
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          run();
        }}
      >
        {domain ? (
          <RecordPicker domain={domain} selected={record} onSelect={setRecord} disabled={pending} />
        ) : (
          <p className="text-sm text-zinc-600">
            Runs of this trigger are not about a stored record; paste the event&apos;s payload below to try
            it.
          </p>
        )}

        <div>
          <Label htmlFor={payloadId}>Event payload (JSON)</Label>
          <textarea
            ref={payloadRef}
            id={payloadId}
            value={payloadText}
            onChange={(event) => {
              setPayloadText(event.target.value);
              if (payloadError) setPayloadError(null);
            }}
            rows={5}
            spellCheck={false}
            disabled={pending}
            aria-invalid={payloadError ? true : undefined}
            aria-describedby={payloadError ? `${payloadErrorId} ${payloadHintId}` : payloadHintId}
            placeholder={'{\n  "total": 120\n}'}
            className="mt-1.5 block w-full rounded-lg border border-zinc-300 bg-white px-3 py-2 font-mono text-xs text-zinc-900 shadow-xs placeholder:text-zinc-400 focus:border-indigo-600 focus:outline-2 focus:outline-offset-0 focus:outline-indigo-600/30 disabled:bg-zinc-50 disabled:text-zinc-500 aria-invalid:border-red-500"
          />
          {payloadError && (
            <p id={payloadErrorId} className="mt-1.5 text-xs text-red-700">
              {payloadError}
            </p>
          )}
          <FieldHint id={payloadHintId}>
            Optional. Leave it empty to use what the real event would carry
            {domain ? ` for the chosen ${DOMAIN_LABELS[domain].one}` : ""}.
          </FieldHint>
        </div>

        <div className="flex flex-wrap gap-2">
          <Button type="submit" variant="primary" size="sm" pending={pending}>
            Run dry run
          </Button>
          {(result || failure) && (
            <Button size="sm" onClick={clear} disabled={pending}>
              Clear
            </Button>
          )}
        </div>
      </form>

      {/* A short announcement; the steps themselves are read when the person moves to them. */}
      <p role="status" className="sr-only">
        {pending ? "Running the dry run…" : result ? finishedSentence(result) : ""}
      </p>

      <div className="space-y-4">
        {failure && <FailureNotice failure={failure} />}
        {result && <DryRunResults result={result} />}
      </div>
    </section>
  );
}

function finishedSentence(result: DryRunResult): string {
  const steps = result.steps.length === 1 ? "1 step" : `${result.steps.length} steps`;
  const resumes = new Set(result.steps.map((s) => s.leg)).size - 1;
  const after = resumes === 1 ? ", some after a wait" : resumes > 1 ? `, some after ${resumes} waits` : "";
  return `Dry run finished: ${steps}${after}. Nothing was changed.`;
}
