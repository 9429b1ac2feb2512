"use client";

import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Notice } from "@/components/ui/notice";
import { createFromTemplateAction } from "@/lib/actions/automations/create-from-template";
import { BLANK_TEMPLATE_ID, type AutomationTemplate } from "@/lib/automations/lifecycle/templates";

/**
 * One card per template; "Use this template" creates a draft from it and the action redirects to
 * the list. Only one creation runs at a time, so a double click never makes two drafts.
 */
export function TemplateGallery({ templates }: { templates: readonly AutomationTemplate[] }) {
  const [pending, startTransition] = useTransition();
  const [chosen, setChosen] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  function choose(templateId: string) {
    setError(null);
    setChosen(templateId);
    startTransition(async () => {
      const result = await createFromTemplateAction({ templateId });
      // On success the action redirects; only a failure comes back here.
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
                  onClick={() => choose(template.id)}
                  aria-label={blank ? "Start blank" : `Use this template: ${template.name}`}
                >
                  {blank ? "Start blank" : "Use this template"}
                </Button>
              </div>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
