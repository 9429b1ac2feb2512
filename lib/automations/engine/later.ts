import { and, eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { automationRunWaits, automations } from "@/lib/db/schema";
import { recordEvents } from "@/lib/events/record";
import { runsForEvent } from "@/lib/automations/dispatch";

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
    const trigger = automation?.graph?.nodes.find(
      (n) => n.type === "auto.trigger.later" && n.params.step === step,
    );
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
    await recordEvents(
      tx,
      wait.tenantId,
      [{ id: wait.event.id, type: "later", domain: "later", entityId: null, payload: wait.event.payload }],
      { automationId: wait.automationId, nodeId: trigger.id },
    );
    const runs = await runsForEvent(tx, wait.tenantId, [wait.event.id]);
    return runs.length > 0 ? "started" : "noop";
  });
}
