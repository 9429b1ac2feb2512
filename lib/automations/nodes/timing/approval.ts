import { z } from "zod";
import { integer, line, paramsObject } from "../params";
import type { NodeDefinition } from "../types";

/**
 * `auto.control.approval`: the run waits for a person's decision. Someone with `approverRole` or
 * above approves or rejects it (run page, Approvals inbox, API); the run then follows the
 * `approved` or `rejected` out. If nobody decides within `timeoutHours`, it follows `timed_out`.
 * An unconnected out ends that branch. The engine persists it as a wait of kind `approval`.
 */

export const APPROVER_ROLES = ["editor", "admin"] as const;
export type ApproverRole = (typeof APPROVER_ROLES)[number];
export const APPROVAL_OUTS = ["approved", "rejected", "timed_out"] as const;
export type ApprovalOut = (typeof APPROVAL_OUTS)[number];

export const approvalParams = paramsObject({
  title: line(200),
  timeoutHours: integer(1, 720),
  approverRole: z.enum(APPROVER_ROLES, { error: `must be one of ${APPROVER_ROLES.join(", ")}` }),
});
export type ApprovalParams = z.infer<typeof approvalParams>;

export const approval = {
  type: "auto.control.approval",
  category: "wait",
  label: "Approval",
  description:
    "Pauses the flow until someone approves or rejects it (from the Approvals inbox or the run's page), or until the time limit passes. Then the flow follows 'Approved', 'Rejected' or 'Timed out'.",
  params: approvalParams,
  defaultParams: () => ({ title: "Review this", timeoutHours: 72, approverRole: "editor" }),
  handles: { in: true, out: APPROVAL_OUTS },
  templated: ["title"],
  summarise: (params) => `Approval: ${params.title} · ${params.timeoutHours} h`,
} satisfies NodeDefinition<typeof approvalParams>;
