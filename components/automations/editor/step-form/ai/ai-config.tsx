"use client";

import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { tryAiAction } from "@/lib/actions/automations/try-ai";
import type { AiTry } from "@/lib/automations/dry-run/ai-try";
import { humanize } from "@/lib/automations/editor/param-form";
import { DOMAIN_LABELS } from "@/lib/domains/domains";
import { RecordPicker } from "../../panel/record-picker";
import type { ConfigFormProps } from "../form-props";
import { ParamForm } from "../param-form";
import { useTryOnRecord } from "../use-try-on-record";

/**
 * The AI step's settings (`auto.action.ai`): the generic form, then "Try with the model", which
 * fills the prompt in from one of the shop's records and asks the model once (one of the shop's
 * hourly AI questions), showing the answer or the sentence the step would fail with.
 */
export function AiConfig(props: ConfigFormProps) {
  return (
    <div className="space-y-4">
      <ParamForm {...props} />
      <AiTrySection
        params={props.params}
        triggerDomain={props.triggerDomain}
        triggerType={props.triggerType ?? null}
        disabled={props.disabled || Object.keys(props.errors).length > 0}
      />
    </div>
  );
}

function AiTrySection({
  params,
  triggerDomain,
  triggerType,
  disabled,
}: {
  params: Record<string, unknown>;
  triggerDomain: ConfigFormProps["triggerDomain"];
  triggerType: string | null;
  disabled: boolean;
}) {
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
    run,
  } = useTryOnRecord<AiTry>(triggerDomain);
  const tried = result;

  function ask() {
    run((target) => tryAiAction({ params, ...target, ...(triggerType ? { triggerType } : {}) }));
  }

  return (
    <div className="space-y-3">
      <Button size="sm" aria-expanded={open} aria-controls={regionId} onClick={toggle}>
        Try with the model
      </Button>
      <section
        id={regionId}
        hidden={!open}
        aria-labelledby={headingId}
        className="space-y-3 rounded-lg border border-zinc-200 p-3"
      >
        <div>
          <h3 id={headingId} className="text-sm font-semibold text-zinc-900">
            Ask the model once
          </h3>
          <p className="mt-1 text-xs text-zinc-600">
            Fills the prompt in from a record and asks the shop&rsquo;s AI model, as a run would. It uses one
            of the shop&rsquo;s hourly AI questions; nothing is changed.
          </p>
        </div>
        {open &&
          (domain ? (
            <RecordPicker domain={domain} selected={record} onSelect={setRecord} disabled={pending} />
          ) : (
            <p className="text-xs text-zinc-600">
              Runs of this trigger are not about a stored record; the prompt&rsquo;s record values are empty.
            </p>
          ))}
        <Button
          size="sm"
          variant="primary"
          pending={pending}
          disabled={disabled || needsRecord}
          onClick={ask}
        >
          Ask the model
        </Button>
        {domain && record === null && (
          <p className="text-xs text-zinc-500">
            Choose {DOMAIN_LABELS[domain].a} to fill the prompt in from.
          </p>
        )}
        <p role="status" className="sr-only">
          {pending
            ? "Asking the model…"
            : tried
              ? tried.result.ok
                ? "The model answered."
                : `The step would fail: ${tried.result.error}`
              : ""}
        </p>
        {failure && <Notice tone="error">{failure}</Notice>}
        {tried && <TryResult tried={tried} />}
      </section>
    </div>
  );
}

function TryResult({ tried }: { tried: AiTry }) {
  const { result } = tried;
  return (
    <div data-ai-try className="space-y-3 text-sm">
      {tried.record && <p className="text-xs text-zinc-600">On {tried.record.label}.</p>}
      <div>
        <h4 className="text-xs font-semibold tracking-wide text-zinc-500 uppercase">Asked</h4>
        <p className="mt-1.5 max-h-40 overflow-auto whitespace-pre-wrap text-zinc-800">{tried.prompt}</p>
      </div>
      {result.ok ? (
        <div>
          <h4 className="text-xs font-semibold tracking-wide text-zinc-500 uppercase">Answered</h4>
          <dl className="mt-1.5 space-y-1 text-zinc-800">
            {Object.entries(result.answer).map(([name, value]) => (
              <div key={name} className="flex gap-2">
                <dt className="font-medium">
                  {name === "cutFromWords" ? "Words before cutting" : humanize(name)}
                </dt>
                <dd className="break-words">{value === null ? "not given" : String(value)}</dd>
              </div>
            ))}
          </dl>
        </div>
      ) : (
        <Notice tone="error" title="The step would fail">
          {result.error}
        </Notice>
      )}
    </div>
  );
}
