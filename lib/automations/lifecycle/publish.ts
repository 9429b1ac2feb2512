import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { recordAudit } from "@/lib/audit";
import { actorLabel, type Caller } from "@/lib/identity/caller";
import { getDb, type Tx } from "@/lib/db/client";
import { automations, automationVersions } from "@/lib/db/schema";
import { AppError, parseOrThrow } from "@/lib/errors";
import { type Graph } from "@/lib/automations/graph/schema";
import { validate } from "@/lib/automations/review/validate";
import { syncSchedules } from "./schedule-sync";
import { assertReferencesExist, credentialHostsOf } from "@/lib/credentials/references";
import { IN_FLIGHT_POLICIES, type InFlightPolicy } from "./policies";
import { automationSubject, sameGraph, view, loadRow, type AutomationRow, type AutomationView } from "./read";
import { assertMayChange } from "./guards";
import { replaceHookTokens } from "./save-draft";
import { name as nameSchema } from "./create";
import { impactOf, triggerEvents, type Impact } from "./impact";
import { serverFacts } from "./server-facts";
import { approverFacts } from "@/lib/automations/engine/votes";
import { reactivate } from "./set-active";

/** Makes `graph` the active version N+1 and snapshots it, inside `tx`. */
export async function publishGraph(
  tx: Tx,
  row: AutomationRow,
  caller: Caller,
  snapshot: { graph: Graph; name: string; policy: InFlightPolicy; note: string },
): Promise<AutomationRow> {
  // A credential deleted since the draft was saved (or since an old version) would fail every run.
  await assertReferencesExist(tx, row.tenantId, snapshot.graph);
  const version = row.version + 1;
  await tx.insert(automationVersions).values({
    automationId: row.id,
    version,
    tenantId: row.tenantId,
    name: snapshot.name,
    graph: snapshot.graph,
    inFlightPolicy: snapshot.policy,
    note: snapshot.note,
    author: actorLabel(caller.actor),
  });
  await replaceHookTokens(tx, row, snapshot.graph);
  const [updated] = await tx
    .update(automations)
    .set({
      version,
      name: snapshot.name,
      inFlightPolicy: snapshot.policy,
      activeGraph: snapshot.graph,
      draftGraph: snapshot.graph,
      draftRevision: sql`${automations.draftRevision} + 1`,
      triggerEvents: triggerEvents(snapshot.graph),
      status: "active",
      activatedAt: new Date(),
      updatedAt: new Date(),
    })
    .where(eq(automations.id, row.id))
    .returning();
  // The schedule's next fire time follows the published graph (same transaction).
  await syncSchedules(tx, updated!);
  return updated!;
}

export const publishInput = z.strictObject({
  note: z.string().trim().max(500).default(""),
  /** What runs waiting now do when they wake (the publish dialog's choice); default: the draft's. */
  inFlightPolicy: z
    .enum(IN_FLIGHT_POLICIES, "choose cancel, finish_on_started_version or move_to_latest")
    .optional(),
  /** The name to publish under (the publish dialog asks for one when the draft is unnamed); default: the draft's. */
  name: nameSchema.optional(),
});

/**
 * Publishes the draft as the next version and turns the automation on. Ready issues block it
 * (422 with the list). Publishing an unchanged draft of an active automation changes nothing.
 * A policy or name given here is kept in the draft too, and published with it.
 */
export async function publishAutomation(
  caller: Caller,
  id: string,
  body: unknown,
): Promise<{ automation: AutomationView; published: boolean; impact: Impact }> {
  const input = parseOrThrow(publishInput, body ?? {}, "The publish request is invalid");
  const { note } = input;
  return getDb().transaction(async (tx) => {
    const loaded = await loadRow(tx, caller.tenant.id, id, true);
    const row: AutomationRow = {
      ...loaded,
      inFlightPolicy: input.inFlightPolicy ?? loaded.inFlightPolicy,
      name: input.name ?? loaded.name,
    };
    assertMayChange(caller, row);
    if (row.status === "archived")
      throw new AppError(409, "conflict", "This automation is archived; restore it before publishing.");
    const issues = validate(row.draftGraph, undefined, {
      ...serverFacts(),
      credentialHosts: await credentialHostsOf(tx, caller.tenant.id, row.draftGraph),
      approvers: await approverFacts(caller.tenant.id, tx),
    });
    if (issues.length > 0) {
      const count = issues.length === 1 ? "1 issue" : `${issues.length} issues`;
      throw new AppError(
        422,
        "invalid",
        `Fix ${count} before publishing: ${issues.map((i) => i.message).join(" ")}`,
        issues,
      );
    }
    const impact = await impactOf(row, "publish");
    const [current] = row.version
      ? await tx
          .select()
          .from(automationVersions)
          .where(
            and(eq(automationVersions.automationId, row.id), eq(automationVersions.version, row.version)),
          )
      : [];
    const unchanged =
      current &&
      sameGraph(current.graph, row.draftGraph) &&
      current.name === row.name &&
      current.inFlightPolicy === row.inFlightPolicy;
    if (unchanged && (row.name !== loaded.name || row.inFlightPolicy !== loaded.inFlightPolicy)) {
      // The choice made while publishing is the draft's from now on, as it is the version's.
      await tx
        .update(automations)
        .set({ name: row.name, inFlightPolicy: row.inFlightPolicy, updatedAt: new Date() })
        .where(eq(automations.id, row.id));
    }
    if (unchanged && row.status === "active") return { automation: view(row), published: false, impact };
    const updated = unchanged
      ? await reactivate(tx, row.id)
      : await publishGraph(tx, row, caller, {
          graph: row.draftGraph,
          name: row.name,
          policy: row.inFlightPolicy,
          note,
        });
    await recordAudit(tx, caller, {
      action: unchanged ? "automation.activated" : "automation.published",
      ...automationSubject(updated),
      detail: unchanged
        ? { name: updated.name, version: updated.version }
        : { name: updated.name, version: updated.version, note },
    });
    return { automation: view(updated), published: !unchanged, impact };
  });
}
