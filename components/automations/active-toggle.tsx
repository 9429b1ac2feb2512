"use client";

import { createContext, useContext, useState, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmButton } from "@/components/ui/confirm-dialog";
import { Notice, type NoticeTone } from "@/components/ui/notice";
import { useServerAction } from "@/components/ui/hooks/use-server-action";
import { setAutomationActiveAction } from "@/lib/actions/automations/set-automation-active";

export interface Outcome {
  tone: NoticeTone;
  title: string;
  text: string;
}

const OutcomeContext = createContext<(outcome: Outcome | null) => void>(() => {});

/**
 * Holds the notice of the last Pause/Activate above the list, so the impact sentence reads as a
 * whole instead of squeezing into a table cell. The list itself is rendered on the server.
 */
export function ActiveToggleNotices({ children }: { children: ReactNode }) {
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  return (
    <OutcomeContext value={setOutcome}>
      {outcome && (
        <div className="border-b border-zinc-200 px-5 py-4">
          <Notice tone={outcome.tone} title={outcome.title}>
            {outcome.text}
          </Notice>
        </div>
      )}
      {children}
    </OutcomeContext>
  );
}

/** Reports an outcome in the notice above the list (or the editor) that holds this control. */
export function useReportOutcome(): (outcome: Outcome | null) => void {
  return useContext(OutcomeContext);
}

/**
 * Pause (when active) or Activate (when paused) one automation. Editors and admins only: the page
 * does not render it for viewers. Drafts that were never published have nothing to activate.
 */
export function ActiveToggle({
  id,
  name,
  status,
  waitingRuns,
}: {
  id: string;
  name: string;
  status: "active" | "paused";
  /** Runs parked on a wait right now: pausing with some asks first and says what happens to them. */
  waitingRuns: number;
}) {
  const report = useContext(OutcomeContext);
  const setAutomationActive = useServerAction(setAutomationActiveAction);
  const activate = status === "paused";

  function toggle() {
    report(null);
    setAutomationActive.run({ id, active: activate }, (result) => {
      if (!result.ok) {
        report({
          tone: "error",
          title: `Could not ${activate ? "activate" : "pause"} '${name}'`,
          text: result.error,
        });
      } else if (activate) {
        report({ tone: "success", title: `'${name}' is active again`, text: result.data.message });
      } else {
        report({ tone: "warning", title: `'${name}' is paused`, text: result.data.message });
      }
    });
  }

  if (!activate && waitingRuns > 0) {
    return (
      <ConfirmButton
        label="Pause"
        ariaLabel={`Pause ${name}`}
        title={`Pause '${name}'?`}
        confirmLabel="Pause automation"
        variant="primary"
        pending={setAutomationActive.pending}
        onConfirm={toggle}
      >
        <p>
          {waitingRuns === 1 ? "1 run is" : `${waitingRuns} runs are`} waiting. While the automation is
          paused, any that come due are cancelled; those due after you activate it again continue. New events
          start no runs.
        </p>
      </ConfirmButton>
    );
  }

  return (
    <Button
      size="sm"
      variant="secondary"
      pending={setAutomationActive.pending}
      onClick={toggle}
      aria-label={`${activate ? "Activate" : "Pause"} ${name}`}
    >
      {activate ? "Activate" : "Pause"}
    </Button>
  );
}
