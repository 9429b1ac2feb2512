import { and, eq } from "drizzle-orm";
import { getDb, type DbOrTx } from "@/lib/db/client";
import { automationRunWaits, automations } from "@/lib/db/schema";
import { laterTrigger } from "@/lib/automations/nodes/triggers/later-steps";
import { recordEvents, runsForEvent } from "./start/events";

/**
 * Starts a later step's run: records the `later` event aimed at one automation's Later trigger,
 * which starts the run in the same transaction (idempotent by event id). The one path for a later
 * that came due (`fireLater`) and one tried now ("Try it later…", `tryLater`). Returns the runs started.
 */
export async function startLaterRun(
  tx: DbOrTx,
  tenantId: string,
  target: { automationId: string; triggerNodeId: string },
  event: { id: string; payload: Record<string, unknown> },
) {
  await recordEvents(
    tx,
    tenantId,
    [{ id: event.id, type: "later", domain: "later", entityId: null, payload: event.payload }],
    { automationId: target.automationId, nodeId: target.triggerNodeId },
  );
  return runsForEvent(tx, tenantId, [event.id]);
}

export const LATER_DROPPED = "The automation was off when this later step came due, so it was dropped.";

/**
 * The `automation_later` job: a later step came due. Claims it (at most once), and — if the
 * automation is on and still has a Later trigger for the step — records the `later` event aimed
 * at that trigger, which starts the new run in the same transaction. The event id is derived from
 * the wait, so a redelivered job starts nothing twice. Off means off: dropped, with the reason.
 */
export async function fireLater(waitId: string): Promise<"started" | "dropped" | "noop"> {
  return getDb().transaction(async (tx) => {
    const [wait] = await tx
      .update(automationRunWaits)
      .set({ status: "resumed", resolvedAt: new Date() })
      .where(
        and(
          eq(automationRunWaits.id, waitId),
          eq(automationRunWaits.status, "pending"),
          eq(automationRunWaits.kind, "later"),
        ),
      )
      .returning();
    if (!wait) return "noop";
    const [automation] = await tx
      .select({ status: automations.status, graph: automations.activeGraph })
      .from(automations)
      .where(eq(automations.id, wait.automationId));
    const step = wait.event.payload.step;
    const trigger = laterTrigger(automation?.graph, step);
    const reason =
      !automation || automation.status !== "active"
        ? LATER_DROPPED
        : !trigger
          ? `The automation no longer has a Later trigger for step '${String(step)}', so this later step was dropped.`
          : null;
    if (reason || !trigger) {
      await tx
        .update(automationRunWaits)
        .set({ status: "cancelled", reason })
        .where(eq(automationRunWaits.id, wait.id));
      return "dropped";
    }
    const runs = await startLaterRun(
      tx,
      wait.tenantId,
      { automationId: wait.automationId, triggerNodeId: trigger.id },
      wait.event,
    );
    return runs.length > 0 ? "started" : "noop";
  });
}
