"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { formatExact } from "@/components/ui/format";
import { useShopTimeZone } from "@/components/ui/shop-time";
import { Label, Textarea } from "@/components/ui/form";
import { Notice } from "@/components/ui/notice";
import { useServerAction } from "@/components/ui/hooks/use-server-action";
import { decideApprovalAction } from "@/lib/actions/approvals/decide-approval";
import type { ApprovalView } from "@/lib/automations/waits/approvals";
import type { ErrorCode } from "@/lib/errors";

type Decision = "approved" | "rejected";

export interface DecisionRefusal {
  title: string;
  message: string;
  /** The approval can no longer be decided (decided elsewhere, timed out, cancelled, gone). */
  final: boolean;
}

/** The sentence of a refused decision, with the service's ISO instants as readable local times. */
function refusal(code: ErrorCode | undefined, message: string, timeZone: string): DecisionRefusal {
  const readable = message.replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z/g, (iso) =>
    formatExact(new Date(iso), timeZone),
  );
  switch (code) {
    case "conflict":
      return { title: "This approval can no longer be decided", message: readable, final: true };
    case "forbidden":
      return { title: "You can’t decide this approval", message: readable, final: false };
    case "not_found":
      return {
        title: "This approval no longer exists",
        message: "Its run may have been deleted with its automation.",
        final: true,
      };
    default:
      return { title: "The decision was not saved", message: readable, final: false };
  }
}

export interface DecisionBoxProps {
  waitId: string;
  /** What is asked, for the buttons' accessible names in a list of several. */
  title: string;
  /** Called with the approval as decided. */
  onDecided?: (approval: ApprovalView) => void;
  /**
   * Called when the decision was refused for good (409, 404) with its sentence, for the caller to
   * show instead of this box. Without it, the box shows the sentence itself.
   */
  onRefused?: (refusal: DecisionRefusal) => void;
}

/**
 * Approve or Reject, with an optional note, for one pending approval. Not optimistic: the buttons
 * wait for the server, then the caller shows the decision it returned. Every live query refetches
 * and server-rendered parts (the sidebar's count) refresh. A refusal is shown in words here.
 */
export function DecisionBox({ waitId, title, onDecided, onRefused }: DecisionBoxProps) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const timeZone = useShopTimeZone();
  const noteId = useId();
  const hintId = useId();
  const [note, setNote] = useState("");
  const decideApproval = useServerAction(decideApprovalAction);
  const pending = decideApproval.pending;
  const [choice, setChoice] = useState<Decision | null>(null);
  const [problem, setProblem] = useState<DecisionRefusal | null>(null);

  function decide(decision: Decision) {
    setProblem(null);
    setChoice(decision);
    const trimmed = note.trim();
    decideApproval.run({ waitId, decision, ...(trimmed ? { note: trimmed } : {}) }, async (result) => {
      if (result.ok) onDecided?.(result.data);
      else {
        const refused = refusal(result.code, result.error, timeZone);
        // A final refusal is the caller's to show, in place of this box; another one stays here.
        if (refused.final && onRefused) onRefused(refused);
        else setProblem(refused);
      }
      await queryClient.invalidateQueries();
      router.refresh();
    });
  }

  return (
    <form
      className="space-y-3"
      aria-label={`Decide: ${title}`}
      onSubmit={(event) => {
        // Enter in the note is a new line; a form submit (no button pressed) approves nothing.
        event.preventDefault();
      }}
    >
      <div>
        <Label htmlFor={noteId}>
          Note <span className="font-normal text-zinc-500">(optional)</span>
        </Label>
        <Textarea
          id={noteId}
          rows={2}
          maxLength={2000}
          value={note}
          onChange={(event) => setNote(event.target.value)}
          aria-describedby={hintId}
          disabled={pending}
          className="mt-1.5"
        />
        <p id={hintId} className="mt-1 text-xs text-zinc-500">
          Kept with the decision on the run and in the audit log.
        </p>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <Button
          variant="primary"
          size="sm"
          pending={pending && choice === "approved"}
          disabled={pending}
          onClick={() => decide("approved")}
          aria-label={`Approve: ${title}`}
        >
          Approve
        </Button>
        <Button
          variant="danger-outline"
          size="sm"
          pending={pending && choice === "rejected"}
          disabled={pending}
          onClick={() => decide("rejected")}
          aria-label={`Reject: ${title}`}
        >
          Reject
        </Button>
        <span role="status" className="text-xs text-zinc-600">
          {pending ? (choice === "approved" ? "Approving…" : "Rejecting…") : null}
        </span>
      </div>
      {problem && (
        <Notice tone="error" title={problem.title}>
          {problem.message}
        </Notice>
      )}
    </form>
  );
}
