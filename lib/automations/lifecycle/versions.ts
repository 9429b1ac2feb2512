import { and, desc, eq } from "drizzle-orm";
import { recordAudit } from "@/lib/audit";
import type { Caller } from "@/lib/identity/caller";
import { getDb } from "@/lib/db/client";
import { automationVersions } from "@/lib/db/schema";
import { notFound, parseOrThrow } from "@/lib/errors";
import { z } from "zod";
import { automationSubject, view, loadRow, type AutomationView } from "./read";
import { assertMayChange } from "./guards";
import { publishGraph } from "./publish";
import type { Graph } from "@/lib/automations/graph/schema";
import { IN_FLIGHT_POLICIES, type InFlightPolicy } from "./policies";

/** One published version of an automation, as the Versions tab and `GET …/versions` show it. */
export interface VersionView {
  version: number;
  name: string;
  graph: Graph;
  inFlightPolicy: InFlightPolicy;
  /** What the publisher wrote when publishing ("" when nothing). */
  note: string;
  author: string;
  createdAt: string;
  /** True for the version runs start on now. */
  active: boolean;
}

export async function listVersions(tenantId: string, id: string): Promise<VersionView[]> {
  const row = await loadRow(getDb(), tenantId, id);
  const versions = await getDb()
    .select()
    .from(automationVersions)
    .where(eq(automationVersions.automationId, row.id))
    .orderBy(desc(automationVersions.version));
  return versions.map((v) => ({
    version: v.version,
    name: v.name,
    graph: v.graph,
    inFlightPolicy: v.inFlightPolicy,
    note: v.note,
    author: v.author,
    createdAt: v.createdAt.toISOString(),
    active: v.version === row.version,
  }));
}

export const revertInput = z.strictObject({
  /**
   * What runs waiting now do when they wake. Default: the old version's own policy, which the
   * revert brings back with its steps (the revert dialog says so and offers to keep another).
   */
  inFlightPolicy: z
    .enum(IN_FLIGHT_POLICIES, "choose cancel, finish_on_started_version or move_to_latest")
    .optional(),
});

/**
 * Publishes an old snapshot as a new version (history is append-only, like `git revert`): its
 * steps, its name and, unless `body.inFlightPolicy` chooses another, its in-flight policy.
 */
export async function revertToVersion(
  caller: Caller,
  id: string,
  versionParam: string,
  body: unknown = {},
): Promise<AutomationView> {
  const input = parseOrThrow(revertInput, body ?? {}, "The revert request is invalid");
  const version = Number(versionParam);
  if (!Number.isInteger(version) || version < 1) throw notFound(`Version '${versionParam}'`);
  return getDb().transaction(async (tx) => {
    const row = await loadRow(tx, caller.tenant.id, id, true);
    assertMayChange(caller, row);
    const [snapshot] = await tx
      .select()
      .from(automationVersions)
      .where(and(eq(automationVersions.automationId, row.id), eq(automationVersions.version, version)));
    if (!snapshot) throw notFound(`Version ${version} of this automation`);
    const updated = await publishGraph(tx, row, caller, {
      graph: snapshot.graph,
      name: snapshot.name,
      policy: input.inFlightPolicy ?? snapshot.inFlightPolicy,
      note: `Reverted to version ${version}.`,
    });
    await recordAudit(tx, caller, {
      action: "automation.reverted",
      ...automationSubject(updated),
      detail: { name: updated.name, fromVersion: row.version, toVersion: version, version: updated.version },
    });
    return view(updated);
  });
}
