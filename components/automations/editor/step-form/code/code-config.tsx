"use client";

import dynamic from "next/dynamic";
import { useMemo, useState } from "react";
import { hasRecord } from "@/lib/automations/nodes/registry";
import { DOMAIN_LABELS } from "@/lib/domains/domains";
import { syntaxError } from "@/lib/automations/nodes/code/syntax";
import { paramFields } from "@/lib/automations/editor/param-form";
import { FormError, FormField } from "../field";
import type { ConfigFormProps } from "../form-props";
import { CodePreviewSection } from "./code-preview";
import { scriptCompletions } from "./script-completions";
import { unknownEntityFields } from "./script-fields";
import { withParam } from "../raw-values";

// CodeMirror is loaded only when a code step's form is shown: the editor's first load stays small.
const CodeEditor = dynamic(() => import("./code-editor").then((m) => m.CodeEditor), {
  ssr: false,
  loading: () => (
    <div
      className="h-48 animate-pulse rounded-lg border border-zinc-200 bg-zinc-50"
      aria-label="Loading the script editor"
      role="status"
    />
  ),
});

/**
 * The form of a code step (`auto.action.code`): the script in a code editor, with completions
 * from the trigger's record and the steps before it, the syntax check inline, the ready issue
 * under the field, and "Run on a record" to try it.
 */
export function CodeConfig({
  definition,
  params,
  errors,
  triggerDomain,
  triggerType,
  tokens,
  disabled,
  onChange,
}: ConfigFormProps) {
  const label = useMemo(
    () => paramFields(definition).find((field) => field.name === "source")?.label ?? "Script",
    [definition],
  );
  const initial = typeof params.source === "string" ? params.source : "";
  const [source, setSource] = useState(initial);
  const [errorLine, setErrorLine] = useState<number | null>(null);
  // The steps before this one, as the token picker lists them (`{steps.<id>.…}`).
  const steps = useMemo(
    () =>
      tokens
        .filter((token) => token.group === "Steps")
        .map((token) => ({ id: token.label.replace(/^steps\./, "").replace(/\.…$/, ""), label: token.hint })),
    [tokens],
  );
  const completions = useMemo(() => scriptCompletions(triggerDomain, steps), [triggerDomain, steps]);
  const recordName = triggerDomain && hasRecord(triggerDomain) ? DOMAIN_LABELS[triggerDomain].one : null;
  const warnings = useMemo(
    () => (text: string) => unknownEntityFields(text, completions, recordName),
    [completions, recordName],
  );
  const fieldWarnings = useMemo(() => warnings(source), [warnings, source]);
  const [expanded, setExpanded] = useState(false);

  function change(text: string) {
    setSource(text);
    setErrorLine(null);
    onChange(withParam(params, "source", text));
  }

  return (
    <div className="space-y-4">
      <FormError>{errors[""]}</FormError>
      <FormField
        label={label}
        param="source"
        error={errors.source}
        hint="JavaScript. Type actions., entity., event. or steps. for what you can use (Ctrl+Space lists it). Tab indents; press Esc then Tab to move on."
      >
        {(a11y) => (
          <div
            data-testid="code-editor-frame"
            data-expanded={expanded || undefined}
            onKeyDown={(event) => {
              // Escape leaves the large view (unless the editor used it, to close its completions).
              if (expanded && event.key === "Escape" && !event.defaultPrevented) {
                event.preventDefault();
                setExpanded(false);
              }
            }}
            className={
              expanded
                ? "fixed inset-4 z-50 flex flex-col gap-2 rounded-xl border border-zinc-200 bg-white p-4 shadow-2xl [&_.cm-scroller]:h-[calc(100dvh-8rem)]! [&_.cm-scroller]:max-h-none!"
                : "space-y-1"
            }
          >
            <div className="flex items-center justify-end gap-2">
              {expanded && <p className="mr-auto text-sm font-medium text-zinc-800">{label}</p>}
              <button
                type="button"
                aria-pressed={expanded}
                aria-keyshortcuts={expanded ? "Escape" : undefined}
                onClick={() => setExpanded((open) => !open)}
                className="rounded-md px-2 py-1 text-xs font-medium text-indigo-700 hover:bg-indigo-50 focus-visible:outline-2 focus-visible:outline-indigo-600"
              >
                {expanded ? "Shrink editor (Esc)" : "Expand editor"}
              </button>
            </div>
            <CodeEditor
              {...a11y}
              labelId={`${a11y.id}-label`}
              initialValue={initial}
              onChange={change}
              disabled={disabled}
              completions={completions}
              lint={syntaxError}
              warnings={warnings}
              errorLine={errorLine}
            />
          </div>
        )}
      </FormField>
      {fieldWarnings.length > 0 && (
        <ul className="space-y-1 text-xs text-amber-800" data-testid="code-field-warnings">
          {fieldWarnings.map((warning) => (
            <li key={`${warning.from}-${warning.message}`}>Check: {warning.message}</li>
          ))}
        </ul>
      )}
      <CodePreviewSection
        source={source}
        triggerDomain={triggerDomain}
        triggerType={triggerType ?? null}
        disabled={disabled}
        onErrorLine={setErrorLine}
      />
    </div>
  );
}
