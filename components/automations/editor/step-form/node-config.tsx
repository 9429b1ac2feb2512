"use client";

import { useMemo, useState, type JSX } from "react";
import { Badge } from "@/components/ui/badge";
import { Notice } from "@/components/ui/notice";
import { paramErrors } from "@/lib/automations/editor/param-form";
import { registry } from "@/lib/automations/nodes/registry";
import type { TriggerDomain } from "@/lib/automations/nodes/types";
import { CATEGORY_STYLES } from "../canvas/category-style";
import type { CredentialOption } from "./credential-options";
import { CredentialPicker } from "./credential-picker";
import { ParamForm } from "./param-form";
import { initialSync, receive, send } from "./params-sync";
import { stepForm } from "./registry";
import { RetryConfig } from "./retry-config";
import { RETRY_PARAM, takesRetry } from "./retry-form";
import { fieldTemplating, type PreviewSource } from "./templating";
import { tokensFor, type EarlierStep } from "@/lib/automations/review/tokens-for";

export interface NodeConfigProps {
  node: { id: string; type: string; params: Record<string, unknown> };
  /** The trigger's domain ("order", "customer", "webhook", "schedule"…) or null when the flow has no trigger yet. */
  triggerDomain: TriggerDomain | null;
  /** The trigger's node type, which "Run on a record" starts the script's event from; null without one. */
  triggerType?: string | null;
  /** The steps that run before this one, with what each hands on (for {steps.<id>.…} tokens). */
  otherSteps: EarlierStep[];
  /**
   * What templated fields preview their tokens on: the dry run's record when there is one, and the
   * shop's time zone. Default: a sample record, in UTC.
   */
  previewSource?: PreviewSource;
  /** The shop's credentials (names, kinds, last 4 characters), for the steps that choose one. */
  credentials?: readonly CredentialOption[];
  readOnly: boolean;
  /** Called on every edit with the complete new params object (the lead debounces saving). */
  onParamsChange(params: Record<string, unknown>): void;
}

const NO_PREVIEW_SOURCE: PreviewSource = { timeZone: "UTC", record: null };
const NO_CREDENTIALS: readonly CredentialOption[] = [];

/**
 * The settings of the selected node, for the editor's side panel: its label and description,
 * then its form, validated as you type. Edits go out whole through `onParamsChange`.
 */
export function NodeConfig({
  node,
  triggerDomain,
  triggerType = null,
  otherSteps,
  previewSource = NO_PREVIEW_SOURCE,
  credentials = NO_CREDENTIALS,
  readOnly,
  onParamsChange,
}: NodeConfigProps): JSX.Element {
  const definition = registry.get(node.type);
  const [sync, setSync] = useState(() => initialSync(node));
  // Params that changed elsewhere (or another node) start the form over; its own edits coming back do not.
  const current = receive(sync, node);
  if (current !== sync) setSync(current);

  const tokens = useMemo(() => tokensFor(triggerDomain, otherSteps), [triggerDomain, otherSteps]);
  const { timeZone, record } = previewSource;
  const templating = useMemo(
    () =>
      fieldTemplating(
        triggerDomain,
        new Set(otherSteps.map((step) => step.id)),
        { timeZone, record },
        undefined,
        new Map(otherSteps.map((step) => [step.id, step.outputs])),
      ),
    [triggerDomain, otherSteps, timeZone, record],
  );
  const retries = useMemo(() => (definition ? takesRetry(definition) : false), [definition]);
  const errors = useMemo(
    () => (definition ? paramErrors(definition, current.values) : {}),
    [definition, current.values],
  );

  // The step's own form and parts, registered in its folder (`registry.ts`), or the generic form.
  const own = definition ? stepForm(definition.type) : undefined;
  const shownElsewhere = useMemo(
    () => [...(own?.credential?.params ?? []), ...(own?.partParams ?? [])],
    [own],
  );

  if (!definition) {
    return (
      <Notice tone="warning" title="Unknown step">
        &lsquo;{node.type}&rsquo; is not a step Tillflow knows, so it has no settings to edit here.
      </Notice>
    );
  }

  function change(values: Record<string, unknown>) {
    setSync((state) => send(state, values));
    onParamsChange(values);
  }

  const Form = own?.Form ?? ParamForm;
  const credentialSlot = own?.credential;
  const Part = own?.Part;
  const After = own?.After;
  return (
    // Not a named region or form: their names would make label lookups ("Field" in "Check a field") ambiguous.
    <section className="space-y-4">
      <header>
        <div className="flex items-center gap-2">
          <h2 className="text-sm font-semibold text-zinc-900">{definition.label}</h2>
          <Badge>{CATEGORY_STYLES[definition.category].name}</Badge>
        </div>
        <p className="mt-1 text-sm text-zinc-600">{definition.description}</p>
      </header>
      <form
        noValidate
        data-step-form={node.id}
        onSubmit={(event) => event.preventDefault()}
        className="space-y-4"
      >
        <fieldset disabled={readOnly} className="min-w-0 space-y-4">
          <Form
            key={`${current.nodeId}:${current.revision}`}
            definition={definition}
            params={current.values}
            errors={errors}
            triggerDomain={triggerDomain}
            triggerType={triggerType}
            tokens={tokens}
            templating={templating}
            earlierSteps={otherSteps}
            shopTimeZone={timeZone}
            shownElsewhere={shownElsewhere}
            paramNote={own?.paramNote}
            disabled={readOnly}
            onChange={change}
          />
          {credentialSlot && (
            <CredentialPicker
              slot={credentialSlot}
              params={current.values}
              credentials={credentials}
              error={errors[credentialSlot.params[0]!]}
              disabled={readOnly}
              onChange={change}
            />
          )}
          {Part && <Part params={current.values} errors={errors} disabled={readOnly} onChange={change} />}
          {retries && (
            <RetryConfig
              key={`retry:${current.nodeId}:${current.revision}`}
              params={current.values}
              error={errors[RETRY_PARAM]}
              disabled={readOnly}
              onChange={change}
            />
          )}
        </fieldset>
        {readOnly && (
          <p className="text-xs text-zinc-500">You can read these settings but not change them.</p>
        )}
      </form>
      {After && <After params={current.values} />}
    </section>
  );
}
