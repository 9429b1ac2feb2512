import { and, eq, inArray } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { automationRunSteps, automationRunWaits } from "@/lib/db/schema";
import { isUuid } from "@/lib/errors";
import { approvalInfo, askedTitle, type ApprovalInfo } from "@/lib/automations/nodes/timing/approval.run";

/**
 * Reads about approvals that the approvals service (`approvals.ts`) does not offer, for pages:
 * what the approval waits of a Waiting list ask, and one approval by its wait id for the
 * inbox's `?wait=` links. Both are scoped to the tenant.
 */

export interface ApprovalAsk {
  /** What it asks ("Review order #1001"). */
  title: string;
  approverRole: "editor" | "admin";
}

/** What each approval wait among `waitIds` asks, and of whom, by wait id (other kinds are absent). */
export async function approvalAsks(tenantId: string, waitIds: string[]): Promise<Map<string, ApprovalAsk>> {
  if (waitIds.length === 0) return new Map();
  const w = automationRunWaits;
  const rows = await getDb()
    .select({ waitId: w.id, output: automationRunSteps.output })
    .from(w)
    .innerJoin(automationRunSteps, eq(automationRunSteps.id, w.stepId))
    .where(and(eq(w.tenantId, tenantId), inArray(w.id, waitIds), eq(w.kind, "approval")));
  return new Map(
    rows.map((row) => [
      row.waitId,
      {
        title: askedTitle(row.output),
        approverRole: row.output?.approverRole === "admin" ? "admin" : "editor",
      },
    ]),
  );
}

export interface ApprovalLookup extends ApprovalInfo {
  waitId: string;
  runId: string;
  reason: string | null;
}

/** One approval of the shop by its wait id, or null (no such approval, or another shop's). */
export async function findApproval(tenantId: string, waitId: string): Promise<ApprovalLookup | null> {
  if (!isUuid(waitId)) return null;
  const w = automationRunWaits;
  const [row] = await getDb()
    .select({ wait: w, output: automationRunSteps.output })
    .from(w)
    .leftJoin(automationRunSteps, eq(automationRunSteps.id, w.stepId))
    .where(and(eq(w.tenantId, tenantId), eq(w.id, waitId), eq(w.kind, "approval")));
  if (!row) return null;
  return {
    ...approvalInfo(row.wait, row.output),
    waitId: row.wait.id,
    runId: row.wait.runId,
    reason: row.wait.reason,
  };
}
