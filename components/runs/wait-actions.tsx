"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmButton } from "@/components/ui/confirm-dialog";
import { useServerAction, type ServerAnswer } from "@/components/ui/hooks/use-server-action";
import { cancelWaitAction } from "@/lib/actions/waits/cancel-wait";
import { resumeWaitNowAction } from "@/lib/actions/waits/resume-wait-now";
import { resumeNowWarning, type WaitFate } from "@/lib/automations/waits/fate-text";

/**
 * Resume now and Cancel for one pending wait (editors and admins: pages leave it out for viewers,
 * and the actions refuse them anyway). Afterwards every live query refetches and server-rendered
 * lists refresh, so the run's new status shows without a reload. On an approval, resuming now
 * means deciding it as timed out, and the button says so; on a wait for an event it means no longer
 * waiting for it, and Resume now asks first. On a wait the wake table will cancel (the automation
 * paused, or edited with policy `cancel`), Resume now asks first and says so.
 */
export function WaitActions({
  waitId,
  label,
  waitKind,
  fate,
}: {
  waitId: string;
  label: string;
  /** The wait's kind; "approval" relabels Resume now. */
  waitKind?: string;
  /** What the wait will do when it wakes; a doomed one is confirmed before Resume now. */
  fate?: WaitFate | null;
}) {
  const approval = waitKind === "approval";
  const forEvent = waitKind === "event";
  const resumeLabel = approval ? "Decide as timed out now" : "Resume now";
  const queryClient = useQueryClient();
  const router = useRouter();
  const resumeWait = useServerAction(resumeWaitNowAction);
  const cancelWait = useServerAction(cancelWaitAction);
  const pending = resumeWait.pending || cancelWait.pending;
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);

  function run(kind: "resume" | "cancel") {
    setMessage(null);
    const then = async (result: ServerAnswer<unknown>) => {
      if (!result.ok) setMessage({ error: true, text: result.error });
      else
        setMessage({
          error: false,
          text:
            kind === "cancel"
              ? "Wait cancelled."
              : fate && !fate.continues
                ? "Cancelling the run…"
                : approval || forEvent
                  ? "Timing out now…"
                  : "Resuming now…",
        });
      await queryClient.invalidateQueries();
      router.refresh();
    };
    if (kind === "resume") resumeWait.run({ waitId }, then);
    else cancelWait.run({ waitId }, then);
  }

  return (
    <div className="flex flex-wrap items-center justify-end gap-2">
      {approval && (!fate || fate.continues) ? (
        <ConfirmButton
          label={resumeLabel}
          ariaLabel={`${resumeLabel}: ${label}`}
          title="Decide this approval as timed out now?"
          confirmLabel="Time out now"
          dismissLabel="Keep waiting"
          pending={pending}
          onConfirm={() => run("resume")}
        >
          <p>
            Nobody approves or rejects it: the run follows &lsquo;Timed out&rsquo; now, as if its time had run
            out. The run history records that you decided this.
          </p>
        </ConfirmButton>
      ) : forEvent && (!fate || fate.continues) ? (
        <ConfirmButton
          label={resumeLabel}
          ariaLabel={`${resumeLabel}: ${label}`}
          title="Stop waiting for the event?"
          confirmLabel="Stop waiting"
          dismissLabel="Keep waiting"
          pending={pending}
          onConfirm={() => run("resume")}
        >
          <p>The run takes the &lsquo;Timed out&rsquo; path now.</p>
        </ConfirmButton>
      ) : fate && !fate.continues ? (
        <ConfirmButton
          label={resumeLabel}
          ariaLabel={`${resumeLabel}: ${label}`}
          title="Resume now will cancel this run"
          confirmLabel="Cancel the run"
          dismissLabel="Keep waiting"
          pending={pending}
          onConfirm={() => run("resume")}
        >
          <p data-testid="resume-warning">{resumeNowWarning(fate)}</p>
          <p className="mt-2">The steps after this wait will not run.</p>
        </ConfirmButton>
      ) : (
        <Button
          size="sm"
          variant="secondary"
          pending={pending}
          onClick={() => run("resume")}
          aria-label={`${resumeLabel}: ${label}`}
        >
          {resumeLabel}
        </Button>
      )}
      <ConfirmButton
        label="Cancel wait"
        ariaLabel={`Cancel wait: ${label}`}
        title="Cancel this wait?"
        confirmLabel="Cancel wait"
        dismissLabel="Keep waiting"
        pending={pending}
        onConfirm={() => run("cancel")}
      >
        <p>
          The steps after this wait will not run. The run ends as cancelled unless another of its branches is
          still waiting.
        </p>
      </ConfirmButton>
      <span role="status" className={message?.error ? "text-xs text-red-700" : "text-xs text-zinc-600"}>
        {message?.text}
      </span>
    </div>
  );
}
