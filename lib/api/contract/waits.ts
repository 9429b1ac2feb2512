import { approvalsQuery, decisionInput } from "@/lib/automations/waits/approvals";
import { waitingQuery } from "@/lib/automations/waits/waits";
import { waitListShape, waitShape } from "@/lib/api/shapes";
import type { Endpoint } from "./endpoint";
import { list, cancelled } from "./shared";

const wait = { status: 200, description: "The wait, as it is now.", schema: waitShape } as const;

/** Waits and approvals. */
export const waitsEndpoints: readonly Endpoint[] = [
  {
    method: "GET",
    path: "/api/v1/waiting",
    summary: "List every pending wait of the shop",
    tag: "Waits and approvals",
    role: "viewer",
    query: waitingQuery,
    ok: { status: 200, description: "A page of pending waits, soonest first.", schema: waitListShape },
  },
  {
    method: "POST",
    path: "/api/v1/waiting/cancel-all",
    summary: "Cancel every pending wait of the shop",
    tag: "Waits and approvals",
    role: "editor",
    ok: cancelled,
  },
  {
    method: "POST",
    path: "/api/v1/waits/{id}/cancel",
    summary: "Cancel a wait",
    tag: "Waits and approvals",
    role: "editor",
    ok: wait,
    errors: [409],
  },
  {
    method: "POST",
    path: "/api/v1/waits/{id}/resume-now",
    summary: "Resume a wait now, as if its time had come",
    tag: "Waits and approvals",
    role: "editor",
    ok: wait,
    errors: [409],
  },
  {
    method: "GET",
    path: "/api/v1/approvals",
    summary: "List approvals",
    tag: "Waits and approvals",
    role: "viewer",
    query: approvalsQuery,
    ok: list("A page of approvals, pending ones by default."),
  },
  {
    method: "POST",
    path: "/api/v1/approvals/{waitId}",
    summary: "Decide an approval",
    description:
      "Casts the caller's vote: one per person, whichever way it arrives (an API key votes as the person who made it, or as itself when the operator's CLI made it); a second vote is a 409. A step with `approverRole` alone is decided by the first vote; a quorum (`approvers`) when every rule is met, or rejected per its `reject` rule. 403 when the caller is not among those asked, or started the run and self-approval is off. The reply has the `votes` and what is still `needed`.",
    tag: "Waits and approvals",
    role: "editor",
    body: decisionInput,
    example: { decision: "approved", note: "Checked the address." },
    ok: { status: 200, description: "The approval, decided." },
    errors: [403, 409],
  },
];
