"use client";

import { useId, useRef, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { useServerAction } from "@/components/ui/hooks/use-server-action";
import { rotateCredentialAction } from "@/lib/actions/credentials/rotate-credential";
import { KIND_LABELS, masked, type CredentialKind } from "@/lib/credentials/kinds";
import { typedValueProblem } from "./credential-problem";
import {
  CredentialValueFields,
  EMPTY_VALUE,
  credentialValue,
  type CredentialValue,
} from "./credential-value-fields";

/**
 * Rotate: a modal `<dialog>` (as `ConfirmButton` draws one) that asks for the new value and
 * says what changes; it stays open with the reason when the value is refused.
 */
export function RotateCredentialButton({
  id,
  name,
  kind,
  last4,
  alertRules = [],
}: {
  id: string;
  name: string;
  kind: CredentialKind;
  last4: string;
  /** The alert rules that send through it: the dialog names them, and rotating confirms. */
  alertRules?: string[];
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [value, setValue] = useState<CredentialValue>(EMPTY_VALUE);
  const [error, setError] = useState<string | null>(null);
  const rotateCredential = useServerAction(rotateCredentialAction);

  function close() {
    // Nothing typed outlives the dialog.
    setValue(EMPTY_VALUE);
    setError(null);
    dialog.current?.close();
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = typedValueProblem(kind, value);
    setError(problem);
    if (problem) return;
    // The dialog named the alert rules that use it: rotating here is the admin's confirmation.
    rotateCredential.run(
      { id, value: credentialValue(kind, value), ...(alertRules.length > 0 ? { confirm: true } : {}) },
      (result) => {
        if (!result.ok) return setError(result.error.replace(/^The credential is invalid: value: /, ""));
        close();
      },
    );
  }

  return (
    <>
      <Button
        size="sm"
        variant="secondary"
        aria-label={`Rotate ${name} (${masked(last4)})`}
        onClick={() => dialog.current?.showModal()}
      >
        Rotate
      </Button>
      <dialog
        ref={dialog}
        aria-labelledby={titleId}
        onClose={() => {
          setValue(EMPTY_VALUE);
          setError(null);
        }}
        className="m-auto w-[calc(100%-2rem)] max-w-md rounded-xl border border-zinc-200 bg-white p-0 text-left text-zinc-900 shadow-xl"
      >
        <form noValidate onSubmit={submit} className="p-6">
          <h2 id={titleId} className="text-base font-semibold">
            Rotate “{name}” ({masked(last4)})?
          </h2>
          <p className="mt-2 text-sm leading-6 text-zinc-600">
            Every flow using it sends the new value from its next step on; the old one is forgotten at once.
            {` ${KIND_LABELS[kind].hint}`}
          </p>
          {alertRules.length > 0 && (
            <p className="mt-2 text-sm leading-6 text-amber-800">
              Alerts go through it: {alertRules.join(", ")}. They go to the new value from now on.
            </p>
          )}
          <div className="mt-4">
            <CredentialValueFields
              kind={kind}
              value={value}
              error={error}
              label="New value"
              onChange={setValue}
            />
          </div>
          <div className="mt-6 flex justify-end gap-3">
            <Button type="button" autoFocus onClick={close}>
              Cancel
            </Button>
            <Button type="submit" variant="primary" pending={rotateCredential.pending}>
              Rotate credential
            </Button>
          </div>
        </form>
      </dialog>
    </>
  );
}
