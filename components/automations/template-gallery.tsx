"use client";

import { useId, useRef, useState, type RefObject } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { FieldHint, Input, Label } from "@/components/ui/form";
import { Notice } from "@/components/ui/notice";
import { useServerAction } from "@/components/ui/hooks/use-server-action";
import { createFromTemplateAction } from "@/lib/actions/automations/create-from-template";
import { BLANK_TEMPLATE_ID, type AutomationTemplate } from "@/lib/automations/lifecycle/templates";

/**
 * One card per template; "Use this template" creates a draft from it and the action opens it in
 * the editor. "Start blank" asks for a name first, so no untitled draft is stored for a flow
 * nobody named (closing that dialog stores nothing). Only one creation runs at a time, so a
 * double click never makes two drafts.
 */
export function TemplateGallery({ templates }: { templates: readonly AutomationTemplate[] }) {
  const createFromTemplate = useServerAction(createFromTemplateAction);
  const pending = createFromTemplate.pending;
  const [chosen, setChosen] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const blankDialog = useRef<HTMLDialogElement>(null);

  function choose(templateId: string, name?: string) {
    setError(null);
    setChosen(templateId);
    // On success the action redirects; only a failure comes back here.
    createFromTemplate.run({ templateId, ...(name ? { name } : {}) }, (result) => {
      if (!result.ok) setError(result.error);
    });
  }

  return (
    <div className="space-y-4">
      {error && (
        <Notice tone="error" title="The draft was not created">
          {error}
        </Notice>
      )}
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {templates.map((template) => {
          const blank = template.id === BLANK_TEMPLATE_ID;
          const headingId = `template-${template.id}`;
          return (
            <li
              key={template.id}
              aria-labelledby={headingId}
              className={cn(
                "flex flex-col rounded-xl border bg-white p-5 shadow-sm",
                blank ? "border-dashed border-zinc-300" : "border-zinc-200",
              )}
            >
              <h2 id={headingId} className="text-sm font-semibold text-zinc-900">
                {template.name}
              </h2>
              <p className="mt-2 text-sm leading-6 text-zinc-600">{template.description}</p>
              {template.outline.length > 0 && (
                <ol aria-label="Steps" className="mt-4 space-y-1.5 text-xs text-zinc-700">
                  {template.outline.map((step, i) => (
                    <li key={`${i}-${step}`} className="flex items-center gap-2">
                      <span
                        aria-hidden="true"
                        className="flex size-5 shrink-0 items-center justify-center rounded-full bg-zinc-100 font-medium text-zinc-500"
                      >
                        {i + 1}
                      </span>
                      {step}
                    </li>
                  ))}
                </ol>
              )}
              <div className="mt-auto pt-5">
                <Button
                  variant={blank ? "secondary" : "primary"}
                  size="sm"
                  pending={pending && chosen === template.id}
                  disabled={pending}
                  onClick={() => (blank ? blankDialog.current?.showModal() : choose(template.id))}
                  aria-label={blank ? "Start blank" : `Use this template: ${template.name}`}
                >
                  {blank ? "Start blank" : "Use this template"}
                </Button>
              </div>
            </li>
          );
        })}
      </ul>
      <BlankNameDialog
        dialogRef={blankDialog}
        pending={pending && chosen === BLANK_TEMPLATE_ID}
        onCreate={(name) => choose(BLANK_TEMPLATE_ID, name)}
      />
    </div>
  );
}

/** "Name your automation": the name a blank flow is created under (Enter creates, Escape closes). */
function BlankNameDialog({
  dialogRef,
  pending,
  onCreate,
}: {
  dialogRef: RefObject<HTMLDialogElement | null>;
  pending: boolean;
  onCreate(name: string): void;
}) {
  const id = useId();
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={`${id}-title`}
      className="m-auto w-[calc(100%-2rem)] max-w-md rounded-xl border border-zinc-200 bg-white p-0 text-left text-zinc-900 shadow-xl backdrop:bg-zinc-900/30"
    >
      <form
        className="p-6"
        onSubmit={(event) => {
          event.preventDefault();
          const trimmed = name.trim();
          if (!trimmed) {
            setError("Give the automation a name.");
            return;
          }
          onCreate(trimmed);
        }}
      >
        <h2 id={`${id}-title`} className="text-base font-semibold">
          Name your automation
        </h2>
        <div className="mt-4">
          <Label htmlFor={`${id}-name`}>Name</Label>
          <Input
            id={`${id}-name`}
            className="mt-1.5"
            value={name}
            maxLength={120}
            autoFocus
            aria-invalid={error ? true : undefined}
            aria-describedby={`${id}-hint`}
            placeholder="e.g. Thank first-time buyers"
            onChange={(event) => {
              setName(event.target.value);
              setError(null);
            }}
          />
          <FieldHint id={`${id}-hint`}>
            {error ?? "Say what it does, so you can find it later. You can rename it in the editor."}
          </FieldHint>
        </div>
        <div className="mt-6 flex justify-end gap-3">
          <Button onClick={() => dialogRef.current?.close()} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" variant="primary" pending={pending}>
            Create and open
          </Button>
        </div>
      </form>
    </dialog>
  );
}
