import { eq } from "drizzle-orm";
import { recordAudit } from "@/lib/audit";
import type { Caller } from "@/lib/identity/caller";
import { getDb } from "@/lib/db/client";
import { automations } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import { syncSchedules } from "./schedule-sync";
import { automationSubject, view, loadRow, type AutomationView } from "./read";
import { impactOf, type Impact } from "./impact";

/** Archiving is refused for built-ins (disable them instead); call this before archiving anything. */
export function assertArchivable(row: { builtinSlug: string | null }): void {
  if (row.builtinSlug) {
    throw new AppError(
      409,
      "conflict",
      "A built-in automation cannot be archived; pause it to turn it off, or reset it to the built-in definition.",
    );
  }
}

/**
 * Archives an automation (SPEC §4 `DELETE /api/v1/automations/:id`): it stops for good — no new
 * runs, schedules stop, waiting runs are cancelled when they wake (wake table: "archived") — and
 * its runs, versions and history are kept. Built-ins are refused (409). Archiving twice is a no-op.
 */
export async function archiveAutomation(
  caller: Caller,
  id: string,
): Promise<{ automation: AutomationView; impact: Impact }> {
  return getDb().transaction(async (tx) => {
    const row = await loadRow(tx, caller.tenant.id, id, true);
    assertArchivable(row);
    const impact = await impactOf(row, "archive");
    if (row.status === "archived") return { automation: view(row), impact };
    const [updated] = await tx
      .update(automations)
      .set({ status: "archived", updatedAt: new Date() })
      .where(eq(automations.id, row.id))
      .returning();
    await syncSchedules(tx, updated!);
    await recordAudit(tx, caller, {
      action: "automation.archived",
      ...automationSubject(updated!),
      detail: { name: updated!.name, version: updated!.version },
    });
    return { automation: view(updated!), impact };
  });
}

/**
 * Brings an archived automation back as paused: nothing runs until someone activates it (runs
 * that were waiting when it was archived and woke meanwhile stay cancelled). Only archived ones.
 */
export async function restoreAutomation(caller: Caller, id: string): Promise<AutomationView> {
  return getDb().transaction(async (tx) => {
    const row = await loadRow(tx, caller.tenant.id, id, true);
    if (row.status !== "archived") throw new AppError(409, "conflict", "This automation is not archived.");
    const [updated] = await tx
      .update(automations)
      .set({ status: "paused", updatedAt: new Date() })
      .where(eq(automations.id, row.id))
      .returning();
    await syncSchedules(tx, updated!);
    await recordAudit(tx, caller, {
      action: "automation.restored",
      ...automationSubject(updated!),
      detail: { name: updated!.name, version: updated!.version },
    });
    return view(updated!);
  });
}
