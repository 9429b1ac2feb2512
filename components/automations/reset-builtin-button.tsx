"use client";

import { useState } from "react";
import { ConfirmButton } from "@/components/ui/confirm-dialog";
import { Notice } from "@/components/ui/notice";
import { useServerAction } from "@/components/ui/hooks/use-server-action";
import { resetAutomationToBuiltinAction } from "@/lib/actions/automations/reset-automation-to-builtin";

export interface ResetBuiltinButtonProps {
  /** A built-in automation (`builtinSlug` set). Admins only: do not render it for other roles. */
  automationId: string;
  name: string;
  /** Reports success to a parent that outlives this button (the editor starts over on a new version). */
  onReset?(version: number): void;
}

/**
 * "Reset to built-in": publishes the platform's own definition as a new version, after asking.
 * History is kept, so an earlier edit can still be restored from the versions list.
 */
export function ResetBuiltinButton({ automationId, name, onReset }: ResetBuiltinButtonProps) {
  const resetAutomationToBuiltin = useServerAction(resetAutomationToBuiltinAction);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);

  function reset() {
    setOutcome(null);
    resetAutomationToBuiltin.run({ id: automationId }, (result) => {
      if (result.ok && onReset) return onReset(result.data.version);
      setOutcome(
        result.ok
          ? { ok: true, text: `Published the built-in definition as version ${result.data.version}.` }
          : { ok: false, text: result.error },
      );
    });
  }

  return (
    <div className="space-y-2">
      <ConfirmButton
        label="Reset to built-in"
        ariaLabel={`Reset ${name} to built-in`}
        title={`Reset '${name}' to the built-in definition?`}
        confirmLabel="Reset to built-in"
        variant="danger"
        pending={resetAutomationToBuiltin.pending}
        onConfirm={reset}
      >
        <p>
          Your changes to its schedule and steps are replaced by the platform&apos;s definition, published as
          a new version. Earlier versions stay in the history, and a paused built-in stays paused.
        </p>
      </ConfirmButton>
      {outcome && (
        <Notice tone={outcome.ok ? "success" : "error"} title={outcome.ok ? "Reset" : "Could not reset it"}>
          {outcome.text}
        </Notice>
      )}
    </div>
  );
}
