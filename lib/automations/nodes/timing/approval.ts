import { z } from "zod";
import { integer, line, paramsObject } from "../params";
import type { NodeDefinition } from "../types";
import { approverIssues } from "./approval.review";

/**
 * `auto.control.approval`: the run waits for a person's decision. Someone with `approverRole` or
 * above approves or rejects it (run page, Approvals inbox, API); the run then follows the
 * `approved` or `rejected` out. If nobody decides within `timeoutHours`, it follows `timed_out`.
 * An unconnected out ends that branch. The engine persists it as a wait of kind `approval`.
 *
 * While nobody decides, the approvers are reminded once after `remindAfterHours`, and the shop's
 * admins are told once after `escalateAfterHours` (both optional, both before the time-out; the
 * worker's `approval_remind` task sends them, `waits/reminders.ts`).
 *
 * A quorum (issue 53): `approvers` lists rules — `{ role, required }` or `{ team, required }` — all
 * of which must be met, by different people; `reject` says whether one rejection (`any`) or a
 * majority of those who may vote rejects. When too few eligible people remain to meet it, the step
 * follows `rejected` early with the reason "can no longer be approved" (nodes/timing/quorum.ts).
 */

export const APPROVER_ROLES = ["editor", "admin"] as const;
export type ApproverRole = (typeof APPROVER_ROLES)[number];
/** A quorum holds at most this many rules, each asking at most `MAX_REQUIRED` people. */
export const MAX_APPROVER_RULES = 10;
export const MAX_REQUIRED = 10;
export const REJECT_RULES = ["any", "majority"] as const;
export type RejectRule = (typeof REJECT_RULES)[number];

const required = integer(1, MAX_REQUIRED);
/** One rule of a quorum: so many people of a role (or above), or so many members of a team. */
export const approverRule = z.union(
  [
    z.strictObject({
      role: z.enum(APPROVER_ROLES, { error: `must be one of ${APPROVER_ROLES.join(", ")}` }),
      required,
    }),
    z.strictObject({ team: z.uuid({ error: "must be a team's id" }), required }),
  ],
  { error: "must be {role, required} or {team, required}" },
);
export type ApproverRule = z.infer<typeof approverRule>;

export const APPROVAL_OUTS = ["approved", "rejected", "timed_out"] as const;
export type ApprovalOut = (typeof APPROVAL_OUTS)[number];

/** "72 hours", "1 hour": the hours a setting names, as the messages below say them. */
function hours(value: number): string {
  return value === 1 ? "1 hour" : `${value} hours`;
}

export const approvalParams = paramsObject({
  title: line(200),
  timeoutHours: integer(1, 720),
  /** Alone (no `approvers`): one person of this role or above decides, as before issue 53. */
  approverRole: z.enum(APPROVER_ROLES, { error: `must be one of ${APPROVER_ROLES.join(", ")}` }).optional(),
  /**
   * A quorum (issue 53): every rule must be met, each by different people; it wins over
   * `approverRole`. One vote per person, whichever way it arrives (waits/approvals.ts).
   */
  approvers: z
    .array(approverRule)
    .min(1, "needs at least one rule")
    .max(MAX_APPROVER_RULES, `can hold at most ${MAX_APPROVER_RULES} rules`)
    .optional(),
  /** `any` (default): one rejection rejects. `majority`: more than half of those who may vote must reject. */
  reject: z.enum(REJECT_RULES, { error: `must be one of ${REJECT_RULES.join(", ")}` }).optional(),
  remindAfterHours: integer(1, 720).optional(),
  escalateAfterHours: integer(1, 720).optional(),
  /**
   * Whether the person whose action started the run (Run now, a re-run, Run on this record) may
   * decide it. False for a new step (`defaultParams`): someone else must. Absent — steps saved
   * before it existed — anyone with the approver role may, as before.
   */
  allowSelfApproval: z.boolean().optional(),
}).superRefine((params, ctx) => {
  // A reminder or an escalation at or after the time-out would reach people about a run that has
  // already followed 'Timed out', so the schema refuses it wherever params are checked: the
  // editor's form, the save, and the engine when the run reaches the step.
  const { timeoutHours, remindAfterHours, escalateAfterHours } = params;
  if (params.approverRole === undefined && params.approvers === undefined)
    ctx.addIssue({
      code: "custom",
      path: ["approverRole"],
      message: "is needed: say who decides (a role, or approver rules)",
    });
  const teams = (params.approvers ?? []).flatMap((rule) => ("team" in rule ? [rule.team] : []));
  const roles = (params.approvers ?? []).flatMap((rule) => ("role" in rule ? [rule.role] : []));
  if (new Set(teams).size < teams.length || new Set(roles).size < roles.length)
    ctx.addIssue({
      code: "custom",
      path: ["approvers"],
      message: "names the same role or team twice: put them in one rule with a larger 'required'",
    });
  if (remindAfterHours !== undefined && remindAfterHours >= timeoutHours)
    ctx.addIssue({
      code: "custom",
      path: ["remindAfterHours"],
      message: `must be less than the time-out (${hours(timeoutHours)}), or the reminder would come after the run has moved on`,
    });
  if (escalateAfterHours !== undefined && escalateAfterHours >= timeoutHours)
    ctx.addIssue({
      code: "custom",
      path: ["escalateAfterHours"],
      message: `must be less than the time-out (${hours(timeoutHours)}), or the admins would hear of it after the run has moved on`,
    });
  else if (
    remindAfterHours !== undefined &&
    escalateAfterHours !== undefined &&
    escalateAfterHours <= remindAfterHours
  )
    ctx.addIssue({
      code: "custom",
      path: ["escalateAfterHours"],
      message: `must be more than the reminder (${hours(remindAfterHours)}): the approvers are reminded first, then the admins are told`,
    });
});
export type ApprovalParams = z.infer<typeof approvalParams>;

/** "· reminder after 24 h · admins after 48 h": the follow-ups a summary mentions, if any. */
function followUps(params: ApprovalParams): string {
  const parts = [
    params.remindAfterHours !== undefined ? ` · reminder after ${params.remindAfterHours} h` : "",
    params.escalateAfterHours !== undefined ? ` · admins after ${params.escalateAfterHours} h` : "",
  ];
  return parts.join("");
}

export const approval = {
  type: "auto.control.approval",
  category: "wait",
  label: "Approval",
  description:
    "Pauses the flow until someone approves or rejects it (from the Approvals inbox or the run's page), or until the time limit passes. Then the flow follows 'Approved', 'Rejected' or 'Timed out'. Nobody decided after a while? It can remind the approvers, then tell the admins.",
  params: approvalParams,
  defaultParams: () => ({
    title: "Review this",
    timeoutHours: 72,
    approverRole: "editor",
    allowSelfApproval: false,
  }),
  handles: { in: true, out: APPROVAL_OUTS },
  templated: ["title"],
  summarise: (params) => `Approval: ${params.title} · ${params.timeoutHours} h${followUps(params)}`,
  paramLabels: {
    title: "What to decide",
    timeoutHours: "Time out after (hours)",
    approverRole: "Who decides",
    remindAfterHours: "Remind approvers after (hours)",
    escalateAfterHours: "Tell admins after (hours)",
    allowSelfApproval: "Who started the run may decide",
    approvers: "Who must approve",
    reject: "Rejected when",
  },
  paramHelp: {
    allowSelfApproval:
      "Off: the person whose action started the run (Run now, a re-run, a record they changed) cannot approve or reject it; someone else must.",
  },
  review: approverIssues,
} satisfies NodeDefinition<typeof approvalParams>;
