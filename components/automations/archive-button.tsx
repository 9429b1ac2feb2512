"use client";

import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmButton } from "@/components/ui/confirm-dialog";
import { useServerAction } from "@/components/ui/hooks/use-server-action";
import { archiveAutomationAction } from "@/lib/actions/automations/archive-automation";
import { getImpactAction } from "@/lib/actions/automations/get-impact";
import { restoreAutomationAction } from "@/lib/actions/automations/restore-automation";
import { useReportOutcome } from "./active-toggle";

/** "No runs are waiting." reads as "no runs are waiting." after "It stops for good:". */
function continueSentence(message: string): string {
  return message.charAt(0).toLowerCase() + message.slice(1);
}

/**
 * Archive one automation, after a confirmation that says what happens to the runs waiting right
 * now (read as the dialog opens). Editors and admins only, never for built-ins: the caller does
 * not render it otherwise. The outcome shows in the surrounding `ActiveToggleNotices`.
 */
export function ArchiveButton({
  id,
  name,
  beforeArchive,
  onArchived,
  menuItem = false,
}: {
  id: string;
  name: string;
  /** Runs first, e.g. the editor saves the draft it has not saved yet (an archived one refuses edits). */
  beforeArchive?(): Promise<unknown>;
  /** Called after a successful archive (the editor refreshes to its read-only archived view). */
  onArchived?(): void;
  /** Drawn as an item of a `Menu` (the editor's "More"). Default false. */
  menuItem?: boolean;
}) {
  const report = useReportOutcome();
  // Pending from the save before it to the answer, so the transition is this screen's own.
  const [pending, startTransition] = useTransition();
  const archiveAutomation = useServerAction(archiveAutomationAction);
  const getImpact = useServerAction(getImpactAction);
  const [impact, setImpact] = useState<{ loading: boolean; text: string | null }>({
    loading: false,
    text: null,
  });

  function readImpact() {
    setImpact({ loading: true, text: null });
    void getImpact
      .call({ id, action: "archive" })
      .then((result) => setImpact({ loading: false, text: result.ok ? result.data.message : null }));
  }

  function archive() {
    report(null);
    startTransition(async () => {
      await beforeArchive?.();
      const result = await archiveAutomation.call({ id });
      if (!result.ok) {
        report({ tone: "error", title: `Could not archive '${name}'`, text: result.error });
        return;
      }
      report({
        tone: "success",
        title: `'${name}' is archived`,
        text: `${result.data.message} Find it under the Archived status to restore it.`,
      });
      onArchived?.();
    });
  }

  return (
    <ConfirmButton
      label="Archive"
      ariaLabel={`Archive ${name}`}
      title={`Archive '${name}'?`}
      confirmLabel="Archive automation"
      variant="danger"
      pending={pending}
      onOpen={readImpact}
      onConfirm={archive}
      menuItem={menuItem}
    >
      <p aria-live="polite" data-testid="archive-impact">
        {impact.loading
          ? "Checking for waiting runs…"
          : `It stops for good: ${
              impact.text
                ? continueSentence(impact.text)
                : "no new runs start, and any waiting runs are cancelled when they wake."
            } Its runs and history are kept.`}
      </p>
    </ConfirmButton>
  );
}

/** Restore an archived automation: it comes back paused, so nothing runs until someone activates it. */
export function RestoreButton({ id, name, onRestored }: { id: string; name: string; onRestored?(): void }) {
  const report = useReportOutcome();
  const restoreAutomation = useServerAction(restoreAutomationAction);

  function restore() {
    report(null);
    restoreAutomation.run({ id }, (result) => {
      if (!result.ok) {
        report({ tone: "error", title: `Could not restore '${name}'`, text: result.error });
        return;
      }
      report({
        tone: "success",
        title: `'${name}' is restored`,
        text: "It is paused: nothing runs until you activate it.",
      });
      onRestored?.();
    });
  }

  return (
    <Button
      size="sm"
      variant="secondary"
      pending={restoreAutomation.pending}
      onClick={restore}
      aria-label={`Restore ${name}`}
    >
      Restore
    </Button>
  );
}
