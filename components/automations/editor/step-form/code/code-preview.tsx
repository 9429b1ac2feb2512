"use client";

import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { previewCodeAction } from "@/lib/actions/automations/preview-code";
import type { CodePreview } from "@/lib/automations/dry-run/code-preview";
import type { TriggerDomain } from "@/lib/automations/nodes/types";
import { DOMAIN_LABELS } from "@/lib/domains/domains";
import { RecordPicker } from "../../panel/record-picker";
import { useTryOnRecord } from "../use-try-on-record";

export interface CodePreviewProps {
  source: string;
  triggerDomain: TriggerDomain | null;
  triggerType: string | null;
  disabled: boolean;
  /** The line the script failed on, for the editor to highlight; null clears it. */
  onErrorLine(line: number | null): void;
}

/**
 * "Run on a record" under the script: choose one of the shop's records (the dry run's picker),
 * run the script as typed against it in the sandbox, and read what it would do — each action in
 * a sentence, what it returns, how long it took — or where it failed. Nothing is changed or sent.
 */
export function CodePreviewSection({
  source,
  triggerDomain,
  triggerType,
  disabled,
  onErrorLine,
}: CodePreviewProps) {
  const {
    domain,
    regionId,
    headingId,
    open,
    toggle,
    record,
    setRecord,
    needsRecord,
    result,
    failure,
    pending,
    run: ask,
  } = useTryOnRecord<CodePreview>(triggerDomain);
  const preview = result;

  function run() {
    onErrorLine(null);
    ask(
      (target) => previewCodeAction({ source, ...target, ...(triggerType ? { triggerType } : {}) }),
      (data) => {
        if (!data.ok) onErrorLine(data.line);
      },
    );
  }

  return (
    <div className="space-y-3">
      <Button size="sm" aria-expanded={open} aria-controls={regionId} disabled={disabled} onClick={toggle}>
        Run on a record
      </Button>
      <section
        id={regionId}
        hidden={!open}
        aria-labelledby={headingId}
        className="space-y-3 rounded-lg border border-zinc-200 p-3"
      >
        <div>
          <h3 id={headingId} className="text-sm font-semibold text-zinc-900">
            Run the script on a record
          </h3>
          <p className="mt-1 text-xs text-zinc-600">
            Runs the script as typed, in the sandbox, and lists the actions it would take. Nothing is changed
            or sent.
          </p>
        </div>
        {open &&
          (domain ? (
            <RecordPicker domain={domain} selected={record} onSelect={setRecord} disabled={pending} />
          ) : (
            <p className="text-xs text-zinc-600">
              Runs of this trigger are not about a stored record; the script sees no entity.
            </p>
          ))}
        <Button
          size="sm"
          variant="primary"
          pending={pending}
          disabled={disabled || needsRecord}
          onClick={run}
        >
          Run script
        </Button>
        {domain && record === null && (
          <p className="text-xs text-zinc-500">Choose {DOMAIN_LABELS[domain].a} to run the script on.</p>
        )}
        <p role="status" className="sr-only">
          {pending
            ? "Running the script…"
            : preview
              ? preview.ok
                ? `The script ran in ${preview.ms} ms and would take ${actionCount(preview.actions.length)}.`
                : `The script failed: ${preview.error}`
              : ""}
        </p>
        {failure && <Notice tone="error">{failure}</Notice>}
        {preview && <PreviewResult preview={preview} />}
      </section>
    </div>
  );
}

function actionCount(n: number): string {
  return n === 0 ? "no actions" : n === 1 ? "1 action" : `${n} actions`;
}

function PreviewResult({ preview }: { preview: CodePreview }) {
  return (
    <div data-code-preview className="space-y-3 text-sm">
      {preview.record && (
        <p className="text-xs text-zinc-600">
          On {preview.record.label}, as the {preview.eventType} event would start it.
        </p>
      )}
      {preview.ok ? (
        <>
          <div>
            <h4 className="text-xs font-semibold tracking-wide text-zinc-500 uppercase">
              Would take {actionCount(preview.actions.length)}
            </h4>
            {preview.actions.length > 0 && (
              <ol className="mt-1.5 list-decimal space-y-1 pl-5 text-zinc-800">
                {preview.actions.map((action, index) => (
                  <li key={index}>
                    {action.error ? (
                      <span className="text-red-700">
                        actions.{action.call}: {action.error}
                      </span>
                    ) : (
                      action.sentences.join(" ")
                    )}
                  </li>
                ))}
              </ol>
            )}
          </div>
          <div>
            <h4 className="text-xs font-semibold tracking-wide text-zinc-500 uppercase">Returns</h4>
            <pre className="mt-1.5 max-h-60 overflow-auto rounded-md bg-zinc-50 p-2 font-mono text-xs text-zinc-800">
              {JSON.stringify(preview.result, null, 2)}
            </pre>
          </div>
        </>
      ) : (
        <Notice
          tone="error"
          title={preview.line ? `The script failed on line ${preview.line}` : "The script failed"}
        >
          {preview.error}
        </Notice>
      )}
      <p className="text-xs text-zinc-500">Took {preview.ms} ms.</p>
      {preview.notes.length > 0 && (
        <ul className="space-y-1 text-xs text-zinc-500">
          {preview.notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
