import { and, desc, eq } from "drizzle-orm";
import { z } from "zod";
import { recordAudit } from "@/lib/audit";
import type { Caller } from "@/lib/identity/caller";
import { getDb } from "@/lib/db/client";
import { automations, scheduleFires, tenants, type FireKind, type FireStatus } from "@/lib/db/schema";
import { AppError, parseOrThrow } from "@/lib/errors";
import { afterCursor, decodeCursor, encodeCursor } from "@/lib/pagination/cursor";
import { automationSubject, loadRow, view, type AutomationView } from "@/lib/automations/lifecycle/read";
import { publishGraph } from "@/lib/automations/lifecycle/publish";
import { enqueueJobs } from "@/lib/jobs";
import { builtinBySlug } from "./builtins";
import { scheduleNodes, syncSchedules } from "@/lib/automations/lifecycle/schedule-sync";
import { fireJobKey } from "./tick";

export const runNowInput = z.strictObject({
  /** Which schedule trigger, when the flow has several. Default: the first. */
  nodeId: z.string().min(1).max(100).optional(),
});

export interface FireView {
  id: string;
  nodeId: string;
  fireAt: string;
  kind: FireKind;
  status: FireStatus;
  runsCreated: number;
  reason: string | null;
  createdAt: string;
  finishedAt: string | null;
}

function fireView(row: typeof scheduleFires.$inferSelect): FireView {
  return {
    id: row.id,
    nodeId: row.nodeId,
    fireAt: row.fireAt.toISOString(),
    kind: row.kind,
    status: row.status,
    runsCreated: row.runsCreated,
    reason: row.reason,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

/**
 * "Run now": fires a scheduled automation at once through the same path as the heartbeat — a
 * `manual` fire row and its `schedule_fanout` job in one transaction — so the runs are exactly
 * the ones the schedule would create (one per audience customer, or one entityless run).
 */
export async function runNow(caller: Caller, id: string, body: unknown = {}): Promise<FireView> {
  const { nodeId } = parseOrThrow(runNowInput, body ?? {}, "The run-now request is invalid");
  return getDb().transaction(async (tx) => {
    const row = await loadRow(tx, caller.tenant.id, id, true);
    const nodes = scheduleNodes(row.activeGraph);
    if (row.status !== "active") {
      throw new AppError(409, "conflict", "This automation is not active; publish or activate it first.");
    }
    if (nodes.length === 0) {
      throw new AppError(
        409,
        "conflict",
        "Run now is for scheduled automations, and this one has no schedule.",
      );
    }
    const node = nodeId ? nodes.find((n) => n.nodeId === nodeId) : nodes[0];
    if (!node) throw new AppError(404, "not_found", `The schedule step '${nodeId}' was not found.`);
    const [fire] = await tx
      .insert(scheduleFires)
      .values({
        tenantId: row.tenantId,
        automationId: row.id,
        nodeId: node.nodeId,
        fireAt: new Date(),
        kind: "manual",
        status: "pending",
        automationVersion: row.version,
        audience: node.params.audience ?? null,
      })
      .onConflictDoNothing()
      .returning();
    if (!fire) throw new AppError(409, "conflict", "This automation was just run; try again in a moment.");
    await enqueueJobs(tx, [
      {
        task: "schedule_fanout",
        payload: { fireId: fire.id },
        jobKey: fireJobKey(fire.id),
        tenantId: caller.tenant.id,
      },
    ]);
    await recordAudit(tx, caller, {
      action: "automation.run_now",
      ...automationSubject(row),
      detail: { name: row.name, version: row.version, nodeId: node.nodeId, fireId: fire.id },
    });
    return fireView(fire);
  });
}

/**
 * "Reset to built-in": publishes the platform's definition of a built-in automation as a new
 * version (history is append-only, like a revert). A paused built-in stays paused. Admins only.
 */
export async function resetToBuiltin(caller: Caller, id: string): Promise<AutomationView> {
  if (caller.role !== "admin") {
    throw new AppError(403, "forbidden", "Only an admin can reset a built-in automation.");
  }
  return getDb().transaction(async (tx) => {
    const row = await loadRow(tx, caller.tenant.id, id, true);
    const builtin = row.builtinSlug ? builtinBySlug(row.builtinSlug) : undefined;
    if (!builtin) throw new AppError(409, "conflict", "Only a built-in automation can be reset.");
    // The shop's zone as stored now: an API key's caller may carry one a few seconds old (the key
    // cache, lib/auth/key-cache.ts), and this one is written into the schedule.
    const [shop] = await tx
      .select({ timezone: tenants.timezone })
      .from(tenants)
      .where(eq(tenants.id, caller.tenant.id));
    let updated = await publishGraph(tx, row, caller, {
      graph: builtin.graph(shop?.timezone ?? caller.tenant.timezone),
      name: builtin.name,
      policy: row.inFlightPolicy,
      note: "Reset to the built-in definition.",
    });
    if (row.status === "paused") {
      const [paused] = await tx
        .update(automations)
        .set({ status: "paused", updatedAt: new Date() })
        .where(eq(automations.id, row.id))
        .returning();
      updated = paused!;
      await syncSchedules(tx, updated);
    }
    await recordAudit(tx, caller, {
      action: "automation.reset_to_builtin",
      ...automationSubject(updated),
      detail: { name: updated.name, fromVersion: row.version, version: updated.version },
    });
    return view(updated);
  });
}

export const firesQuery = z.object({
  cursor: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

/** A schedule's fires, latest first (keyset): what ran, how many runs, and what was missed and why. */
export async function listFires(
  tenantId: string,
  id: string,
  query: unknown = {},
): Promise<{ items: FireView[]; nextCursor: string | null }> {
  const { cursor, limit } = parseOrThrow(firesQuery, query, "The list query is invalid");
  const row = await loadRow(getDb(), tenantId, id);
  const after = cursor ? decodeCursor(cursor) : null;
  const rows = await getDb()
    .select()
    .from(scheduleFires)
    .where(
      and(
        eq(scheduleFires.tenantId, tenantId),
        eq(scheduleFires.automationId, row.id),
        afterCursor(scheduleFires.fireAt, scheduleFires.id, after),
      ),
    )
    .orderBy(desc(scheduleFires.fireAt), desc(scheduleFires.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    items: page.map(fireView),
    nextCursor: rows.length > limit && last ? encodeCursor(last.fireAt, last.id) : null,
  };
}
