"use client";

import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { FieldHint, Label, Textarea } from "@/components/ui/form";
import { Notice } from "@/components/ui/notice";
import { useServerAction } from "@/components/ui/hooks/use-server-action";
import { buildWithAiAction } from "@/lib/actions/automations/build-with-ai";
import { AI_EXAMPLES } from "@/lib/automations/ai/examples";

/**
 * "Describe your automation": a sentence → a new draft opened in the editor (the action
 * redirects). Without a model set up the box says to ask the administrator (docs/ai-builder.md
 * tells them how) and Build stays disabled.
 * Only one build runs at a time, so a double click never makes two drafts.
 */
export function AiBuilder({ configured }: { configured: boolean }) {
  const [prompt, setPrompt] = useState("");
  const [error, setError] = useState<string | null>(null);
  const buildWithAi = useServerAction(buildWithAiAction);
  const fieldId = useId();
  const hintId = useId();

  function build() {
    setError(null);
    buildWithAi.run({ prompt }, (result) => {
      // On success the action redirects; only a failure comes back here.
      if (!result.ok) setError(result.error);
    });
  }

  return (
    <Card>
      <CardHeader
        title="Describe your automation"
        description="Say in a sentence what should happen; a model drafts the flow and it opens in the editor as a draft. Nothing runs until you publish it."
      />
      <CardBody className="space-y-3">
        {!configured && (
          <Notice tone="info" title="The AI builder is off">
            No AI model is connected to this shop yet. Ask your administrator to connect one; until then,
            start from a template or a blank flow.
          </Notice>
        )}
        {error && (
          <Notice tone="error" title="The flow was not built">
            {error}
          </Notice>
        )}
        <form
          className="space-y-3"
          onSubmit={(event) => {
            event.preventDefault();
            if (configured && prompt.trim() && !buildWithAi.pending) build();
          }}
        >
          <Label htmlFor={fieldId}>What should happen?</Label>
          <Textarea
            id={fieldId}
            rows={3}
            value={prompt}
            maxLength={2000}
            aria-describedby={hintId}
            disabled={!configured || buildWithAi.pending}
            placeholder="When … happens, do …"
            onChange={(event) => setPrompt(event.target.value)}
          />
          <div id={hintId}>
            <FieldHint>For example (click one to start from it):</FieldHint>
            <ul className="mt-1 space-y-1">
              {AI_EXAMPLES.map((example) => (
                <li key={example}>
                  <button
                    type="button"
                    disabled={!configured || buildWithAi.pending}
                    onClick={() => setPrompt(example)}
                    className="text-left text-sm text-sky-700 hover:underline disabled:text-zinc-400 disabled:no-underline"
                  >
                    {example}
                  </button>
                </li>
              ))}
            </ul>
          </div>
          <Button
            type="submit"
            variant="primary"
            pending={buildWithAi.pending}
            disabled={!configured || !prompt.trim()}
          >
            {buildWithAi.pending ? "Building…" : "Build"}
          </Button>
        </form>
      </CardBody>
    </Card>
  );
}
