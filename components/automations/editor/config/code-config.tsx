"use client";

import dynamic from "next/dynamic";
import { useMemo, useState } from "react";
import { syntaxError } from "@/lib/automations/nodes/code/syntax";
import { paramFields } from "@/lib/automations/editor/param-form";
import { FormError, FormField } from "./field";
import type { ConfigFormProps } from "./form-props";
import { CodePreviewSection } from "./code-preview";
import { scriptCompletions } from "./script-completions";
import { withParam } from "./raw-values";

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
          <CodeEditor
            {...a11y}
            labelId={`${a11y.id}-label`}
            initialValue={initial}
            onChange={change}
            disabled={disabled}
            completions={completions}
            lint={syntaxError}
            errorLine={errorLine}
          />
        )}
      </FormField>
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
