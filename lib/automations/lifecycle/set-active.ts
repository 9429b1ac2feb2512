import { eq } from "drizzle-orm";
import { recordAudit } from "@/lib/audit";
import type { Caller } from "@/lib/identity/caller";
import { getDb, type Tx } from "@/lib/db/client";
import { automations } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import { syncSchedules } from "./schedule-sync";
import { automationSubject, view, loadRow, type AutomationRow, type AutomationView } from "./read";
import { assertMayChange } from "./guards";
import { impactOf, type Impact } from "./impact";

export async function reactivate(tx: Tx, id: string): Promise<AutomationRow> {
  const [updated] = await tx
    .update(automations)
    .set({ status: "active", activatedAt: new Date(), updatedAt: new Date() })
    .where(eq(automations.id, id))
    .returning();
  await syncSchedules(tx, updated!);
  return updated!;
}

/** Pause or activate without changing the version ("off means off": due waits are dropped while paused). */
export async function setActive(
  caller: Caller,
  id: string,
  active: boolean,
): Promise<{ automation: AutomationView; impact: Impact }> {
  return getDb().transaction(async (tx) => {
    const row = await loadRow(tx, caller.tenant.id, id, true);
    assertMayChange(caller, row);
    if (active && row.version === 0)
      throw new AppError(409, "conflict", "Publish this automation before activating it.");
    if (row.status === "archived") throw new AppError(409, "conflict", "This automation is archived.");
    const impact = await impactOf(row, "pause");
    const [updated] = await tx
      .update(automations)
      .set({
        status: active ? "active" : "paused",
        ...(active ? { activatedAt: new Date() } : {}),
        updatedAt: new Date(),
      })
      .where(eq(automations.id, row.id))
      .returning();
    // Paused schedules stop firing; re-activated ones fire next after now ("off means off").
    await syncSchedules(tx, updated!);
    if (row.status !== updated!.status)
      await recordAudit(tx, caller, {
        action: active ? "automation.activated" : "automation.paused",
        ...automationSubject(updated!),
        detail: { name: updated!.name, version: updated!.version },
      });
    return { automation: view(updated!), impact };
  });
}
