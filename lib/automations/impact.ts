import { and, eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { automations } from "@/lib/db/schema";
import { isUuid, notFound } from "@/lib/errors";
import type { InFlightPolicy } from "./policies";
import { impactOf, type Impact } from "./service";

export type ImpactAction = "publish" | "pause" | "archive";

/**
 * What publishing, pausing or archiving this automation would do to the runs waiting right now, read before
 * the person acts (SPEC §2: "The admin is told, before pausing or publishing, …"). Read-only.
 *
 * `policy` asks "what if the in-flight policy were this one": a revert publishes an old version
 * together with that version's policy, and the waiting runs follow the policy in force when they
 * wake, so the sentence must name that one. Default: the automation's own policy.
 *
 * An automation of another tenant, or an id that is not one, is simply not found (404).
 */
export async function automationImpact(
  tenantId: string,
  id: string,
  action: ImpactAction,
  policy?: InFlightPolicy,
): Promise<Impact> {
  if (!isUuid(id)) throw notFound("That automation");
  const [row] = await getDb()
    .select()
    .from(automations)
    .where(and(eq(automations.tenantId, tenantId), eq(automations.id, id)));
  if (!row) throw notFound("That automation");
  return impactOf(policy ? { ...row, inFlightPolicy: policy } : row, action);
}
