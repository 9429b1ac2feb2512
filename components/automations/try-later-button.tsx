"use client";

import { useRouter } from "next/navigation";
import { useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { FieldHint, Label, Select, Textarea } from "@/components/ui/form";
import { useServerAction } from "@/components/ui/hooks/use-server-action";
import { tryLaterAction } from "@/lib/actions/automations/try-later";
import { parseThenText } from "@/lib/automations/runs/later-then";

export interface TryLaterButtonProps {
  /** An active automation. Editors and admins only: do not render it for viewers. */
  automationId: string;
  name: string;
  /** The step names of the active version's Later triggers (at least one). */
  steps: string[];
}

/**
 * "Try it later…" (seed 003): runs a Later trigger's step now, as if it had come due, handed the
 * JSON typed here as `then` — a real run on the active version. A native modal `<dialog>` as
 * `ConfirmButton`'s: focus moves in, Escape cancels; on success it opens the new run.
 */
export function TryLaterButton({ automationId, name, steps }: TryLaterButtonProps) {
  const router = useRouter();
  const dialog = useRef<HTMLDialogElement>(null);
  const ids = { title: useId(), step: useId(), then: useId(), hint: useId(), error: useId() };
  const [step, setStep] = useState(steps[0] ?? "");
  const [text, setText] = useState("{}");
  const [error, setError] = useState<string | null>(null);
  const tryLater = useServerAction(tryLaterAction);
  const parsed = parseThenText(text);
  const shown = error ?? (parsed.ok ? null : parsed.error);

  function submit() {
    if (!parsed.ok) return;
    setError(null);
    tryLater.run({ id: automationId, step, then: parsed.then }, (result) => {
      if (!result.ok) {
        setError(result.error);
        return;
      }
      dialog.current?.close();
      router.push(`/runs/${result.data.runId}`);
    });
  }

  return (
    <>
      <Button
        size="sm"
        onClick={() => {
          setError(null);
          dialog.current?.showModal();
        }}
      >
        Try it later…
      </Button>
      <dialog
        ref={dialog}
        aria-labelledby={ids.title}
        className="m-auto w-[calc(100%-2rem)] max-w-md rounded-xl border border-zinc-200 bg-white p-0 text-left text-zinc-900 shadow-xl"
      >
        <form
          className="p-6"
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <h2 id={ids.title} className="text-base font-semibold">
            Try a later step of &lsquo;{name}&rsquo; now
          </h2>
          <p className="mt-2 text-sm leading-6 text-zinc-600">
            Starts a real run at the Later trigger you choose, as if its time had come, handed the JSON below
            as <code className="font-mono text-xs">then</code>. Its actions take effect.
          </p>
          <div className="mt-4 space-y-4">
            <div>
              <Label htmlFor={ids.step}>Later step</Label>
              <Select
                id={ids.step}
                className="mt-1.5"
                value={step}
                onChange={(event) => setStep(event.target.value)}
              >
                {steps.map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))}
              </Select>
            </div>
            <div>
              <Label htmlFor={ids.then}>Handed back (then)</Label>
              <Textarea
                id={ids.then}
                rows={6}
                className="mt-1.5 font-mono text-xs"
                value={text}
                spellCheck={false}
                aria-invalid={shown ? true : undefined}
                aria-describedby={shown ? `${ids.error} ${ids.hint}` : ids.hint}
                onChange={(event) => {
                  setText(event.target.value);
                  setError(null);
                }}
              />
              <FieldHint id={ids.hint}>
                A JSON object of at most 16 KB; the run reads it as {"{event.then.…}"}.
              </FieldHint>
              {shown && (
                <p id={ids.error} role="alert" className="mt-1.5 text-sm text-red-700">
                  {shown}
                </p>
              )}
            </div>
          </div>
          <div className="mt-6 flex justify-end gap-3">
            <Button type="button" onClick={() => dialog.current?.close()}>
              Cancel
            </Button>
            <Button type="submit" variant="primary" pending={tryLater.pending} disabled={!parsed.ok || !step}>
              Run it now
            </Button>
          </div>
        </form>
      </dialog>
    </>
  );
}
