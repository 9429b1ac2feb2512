import { and, eq, notInArray } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { automationSchedules } from "@/lib/db/schema";
import type { Graph } from "@/lib/automations/graph/schema";
import { schedule, scheduleParams } from "@/lib/automations/nodes/triggers/triggers";
import { compileSchedule } from "@/lib/time/cron";
import { isDefaultDst } from "@/lib/time/dst";

/** The schedule trigger nodes of a graph whose params parse (a broken one never fires). */
export function scheduleNodes(graph: Graph | null) {
  return (graph?.nodes ?? []).flatMap((node) => {
    if (node.type !== schedule.type) return [];
    const parsed = scheduleParams.safeParse(node.params);
    return parsed.success ? [{ nodeId: node.id, params: parsed.data }] : [];
  });
}

/**
 * Makes `automation_schedules` agree with the automation, inside the transaction that changed it
 * (publish, activate, pause, revert, reset to built-in):
 *
 * - not active (draft, paused, archived) → no rows: nothing fires ("off means off"; fire times
 *   that pass while paused are neither run nor caught up on later).
 * - active → one row per schedule trigger of the active graph. A schedule whose cron and zone did
 *   not change keeps its pending `next_fire_at` (republishing at 09:00:20 must not skip the 09:00
 *   fire the tick is about to claim) while its DST rule still fires then; a new or changed one
 *   fires next after `now`.
 */
export async function syncSchedules(
  tx: DbOrTx,
  automation: { id: string; tenantId: string; status: string; activeGraph: Graph | null },
  now = new Date(),
): Promise<void> {
  const nodes = automation.status === "active" ? scheduleNodes(automation.activeGraph) : [];
  await tx.delete(automationSchedules).where(
    and(
      eq(automationSchedules.automationId, automation.id),
      nodes.length
        ? notInArray(
            automationSchedules.nodeId,
            nodes.map((n) => n.nodeId),
          )
        : undefined,
    ),
  );
  if (nodes.length === 0) return;
  const existing = await tx
    .select()
    .from(automationSchedules)
    .where(eq(automationSchedules.automationId, automation.id));
  for (const { nodeId, params } of nodes) {
    const compiled = compileSchedule(params.cron, params.timezone, params.dst);
    // Under a DST rule of the merchant's, a pending fire time is kept only while it is still one.
    const kept = existing.find(
      (row) =>
        row.nodeId === nodeId &&
        row.cron === params.cron &&
        row.timezone === params.timezone &&
        row.nextFireAt !== null &&
        (isDefaultDst(params.dst) ||
          compiled?.next(new Date(row.nextFireAt.getTime() - 1000))?.getTime() === row.nextFireAt.getTime()),
    );
    const values = {
      automationId: automation.id,
      nodeId,
      tenantId: automation.tenantId,
      cron: params.cron,
      timezone: params.timezone,
      nextFireAt: kept?.nextFireAt ?? compiled?.next(now) ?? null,
      updatedAt: now,
    };
    await tx
      .insert(automationSchedules)
      .values(values)
      .onConflictDoUpdate({
        target: [automationSchedules.automationId, automationSchedules.nodeId],
        set: values,
      });
  }
}
