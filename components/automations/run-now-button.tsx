"use client";

import { useState } from "react";
import { ConfirmButton } from "@/components/ui/confirm-dialog";
import { Notice } from "@/components/ui/notice";
import { useServerAction } from "@/components/ui/hooks/use-server-action";
import { runAutomationNowAction } from "@/lib/actions/automations/run-automation-now";

export interface RunNowButtonProps {
  /** An active automation with a schedule trigger. Editors and admins only: do not render it for viewers. */
  automationId: string;
  name: string;
  /** The audience's current size when the schedule has one (from the preview), for the confirmation. */
  audienceSize?: number;
}

/**
 * "Run now": fires the schedule at once, through the same path as a scheduled fire (one run per
 * matching customer, or one run). Asks first, saying how many runs that is.
 */
export function RunNowButton({ automationId, name, audienceSize }: RunNowButtonProps) {
  const runAutomationNow = useServerAction(runAutomationNowAction);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);

  function run() {
    setOutcome(null);
    runAutomationNow.run({ id: automationId }, (result) => {
      setOutcome(
        result.ok
          ? {
              ok: true,
              text: "Fired. Its runs are being created now; they show in the run history as they start.",
            }
          : { ok: false, text: result.error },
      );
    });
  }

  return (
    <div className="space-y-2">
      <ConfirmButton
        label="Run now"
        ariaLabel={`Run now: ${name}`}
        title={`Run '${name}' now?`}
        confirmLabel="Run now"
        variant="primary"
        pending={runAutomationNow.pending}
        onConfirm={run}
      >
        <p>
          {audienceSize === undefined
            ? "This starts a run now, exactly as the schedule would."
            : `This starts ${audienceSize === 1 ? "1 run" : `${audienceSize.toLocaleString("en-US")} runs`} now, one for each matching customer, exactly as the schedule would.`}{" "}
          The regular schedule is not affected.
        </p>
      </ConfirmButton>
      {outcome && (
        <Notice
          tone={outcome.ok ? "success" : "error"}
          title={outcome.ok ? `'${name}' is running` : "Could not run it"}
        >
          {outcome.text}
        </Notice>
      )}
    </div>
  );
}
