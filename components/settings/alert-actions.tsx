"use client";

import Link from "next/link";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmButton } from "@/components/ui/confirm-dialog";
import { useServerAction } from "@/components/ui/hooks/use-server-action";
import { deleteAlertAction } from "@/lib/actions/alerts/delete-alert";
import { sendTestAlertAction } from "@/lib/actions/alerts/send-test-alert";

/** An alert row's buttons (admins): send a test alert now, change it, delete it. */
export function AlertActions({ id, sentence }: { id: string; sentence: string }) {
  const [note, setNote] = useState<{ tone: "ok" | "error"; text: string } | null>(null);
  const sendTest = useServerAction(sendTestAlertAction);
  const deleteAlert = useServerAction(deleteAlertAction);
  const pending = sendTest.pending || deleteAlert.pending;
  const run = (action: typeof sendTest | typeof deleteAlert, done: string) => {
    setNote(null);
    action.run({ id }, (result) =>
      setNote(result.ok ? { tone: "ok", text: done } : { tone: "error", text: result.error }),
    );
  };
  return (
    <span className="inline-flex flex-col items-end gap-1">
      <span className="inline-flex items-start gap-2">
        <Button
          size="sm"
          variant="secondary"
          pending={pending}
          aria-label={`Send a test alert: ${sentence}`}
          onClick={() => run(sendTest, "Test alert queued: see Alerts → History.")}
        >
          Send a test alert
        </Button>
        <Link
          href={`/settings/alerts?edit=${id}`}
          aria-label={`Change the alert: ${sentence}`}
          className="inline-flex h-8 items-center rounded-lg border border-zinc-300 px-3 text-sm text-zinc-800 hover:bg-zinc-50"
        >
          Change
        </Link>
        <ConfirmButton
          label="Delete"
          ariaLabel={`Delete the alert: ${sentence}`}
          title="Delete this alert?"
          confirmLabel="Delete alert"
          pending={pending}
          onConfirm={() => run(deleteAlert, "Deleted.")}
        >
          It stops alerting at once. What it already sent stays in the history.
        </ConfirmButton>
      </span>
      {note && (
        <span
          role={note.tone === "error" ? "alert" : "status"}
          className={note.tone === "error" ? "text-xs text-red-700" : "text-xs text-green-800"}
        >
          {note.text}
        </span>
      )}
    </span>
  );
}
