import { eq } from "drizzle-orm";
import { z } from "zod";
import { recordAudit } from "@/lib/audit";
import { getDb } from "@/lib/db/client";
import { automations } from "@/lib/db/schema";
import { assertRole, type Caller } from "@/lib/identity/caller";
import { parseOrThrow } from "@/lib/errors";
import { assertMayChange } from "./guards";
import { automationSubject, loadRow, view, type AutomationView } from "./read";

export const holdoutInput = z.strictObject({
  percent: z
    .number({ error: "must be a whole number from 0 to 50" })
    .int("must be a whole number from 0 to 50")
    .min(0, "must be 0 or more")
    .max(50, "can be at most 50: at least half the customers get the automation"),
});

/**
 * Sets the share of customers an automation holds out (editor; audited), for runs that start
 * from now on, without a new version: the claim reads it live (engine/claim.ts). 0 turns it off.
 */
export async function setHoldout(caller: Caller, id: string, input: unknown): Promise<AutomationView> {
  assertRole(caller, "editor");
  const { percent } = parseOrThrow(holdoutInput, input, "That holdout is not valid");
  return getDb().transaction(async (tx) => {
    const row = await loadRow(tx, caller.tenant.id, id, true);
    assertMayChange(caller, row);
    const [updated] = await tx
      .update(automations)
      .set({ holdoutPercent: percent, updatedAt: new Date() })
      .where(eq(automations.id, row.id))
      .returning();
    await recordAudit(tx, caller, {
      action: "automation.holdout_set",
      ...automationSubject(updated!),
      detail: { name: updated!.name, percent },
    });
    return view(updated!);
  });
}
