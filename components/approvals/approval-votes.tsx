"use client";

import { createContext, useContext, type ReactNode } from "react";
import { RelativeTime } from "@/components/ui/relative-time";
import type { VoteView } from "@/lib/automations/nodes/timing/quorum";

/**
 * The votes on an approval (issue 53): who approved or rejected it, when, with their note, and
 * while it waits, who is still needed ("1 of 2 admins, and 1 from Finance still needed").
 * The signed-in person's own vote is marked, and their decision box gives way to it.
 */

/** Who is signed in, as votes name them (their email); empty outside the signed-in shell. */
const SignedIn = createContext("");

export function SignedInVoterProvider({ label, children }: { label: string; children: ReactNode }) {
  return <SignedIn.Provider value={label}>{children}</SignedIn.Provider>;
}

/** The signed-in person's vote among `votes`, if they cast one. */
export function useOwnVote(votes: VoteView[]): VoteView | null {
  const me = useContext(SignedIn);
  return (me && votes.find((vote) => vote.by === me)) || null;
}

export function ApprovalVotes({ votes, needed }: { votes: VoteView[]; needed: string | null }) {
  const own = useOwnVote(votes);
  if (votes.length === 0 && !needed) return null;
  return (
    <div className="space-y-1 text-sm" data-testid="approval-votes">
      {votes.length > 0 && (
        <ul aria-label="Votes" className="space-y-1">
          {votes.map((vote) => (
            <li
              key={`${vote.by}-${vote.at}`}
              className="break-words text-zinc-700"
              data-testid="approval-vote"
            >
              <span className="font-medium text-zinc-900">{vote === own ? "You" : vote.by}</span>{" "}
              <span className={vote.decision === "approved" ? "text-emerald-700" : "text-red-700"}>
                {vote.decision === "approved" ? "approved" : "rejected"}
              </span>{" "}
              <RelativeTime value={vote.at} brief />
              {vote.note && <span className="text-zinc-600">: “{vote.note}”</span>}
            </li>
          ))}
        </ul>
      )}
      {needed && (
        <p className="font-medium text-zinc-800" data-testid="approval-needed">
          {needed}.
        </p>
      )}
    </div>
  );
}
