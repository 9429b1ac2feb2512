import { and, eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { automations, automationVersions } from "@/lib/db/schema";
import { isUuid, notFound } from "@/lib/errors";
import type { InFlightPolicy } from "./policies";
import { impactOf, type Impact } from "@/lib/automations/service";

export type ImpactAction = "publish" | "pause" | "archive";

/**
 * What publishing, pausing or archiving this automation would do to the runs waiting right now, read before
 * the person acts (SPEC §2: "The admin is told, before pausing or publishing, …"). Read-only.
 *
 * For publish, `options.version` asks "what if this old version were published" (a revert): it
 * brings its steps and its in-flight policy, so runs waiting on a version with the same steps
 * continue and the others follow that policy. `options.policy` asks "what if the policy were this
 * one" (the publish dialog's choice). Default: the draft and the automation's own policy.
 *
 * An automation of another tenant, or an id that is not one, is simply not found (404).
 */
export async function automationImpact(
  tenantId: string,
  id: string,
  action: ImpactAction,
  options: { policy?: InFlightPolicy; version?: number } = {},
): Promise<Impact> {
  if (!isUuid(id)) throw notFound("That automation");
  const [row] = await getDb()
    .select()
    .from(automations)
    .where(and(eq(automations.tenantId, tenantId), eq(automations.id, id)));
  if (!row) throw notFound("That automation");
  if (options.version === undefined)
    return impactOf(row, action, { graph: row.draftGraph, policy: options.policy ?? row.inFlightPolicy });
  const [snapshot] = await getDb()
    .select({ graph: automationVersions.graph, policy: automationVersions.inFlightPolicy })
    .from(automationVersions)
    .where(and(eq(automationVersions.automationId, row.id), eq(automationVersions.version, options.version)));
  if (!snapshot) throw notFound(`Version ${options.version} of this automation`);
  return impactOf(row, action, { graph: snapshot.graph, policy: options.policy ?? snapshot.policy });
}
