import { eq, sql } from "drizzle-orm";
import { recordAudit } from "@/lib/audit";
import { getDb } from "@/lib/db/client";
import { automations } from "@/lib/db/schema";
import { assertRole, type Caller } from "@/lib/identity/caller";
import { parseOrThrow } from "@/lib/errors";
import { capsFrom, capsInput, capsSentence } from "@/lib/automations/caps/caps";
import { assertMayChange } from "./guards";
import { automationSubject, loadRow, view, type AutomationView } from "./read";

/**
 * Sets an automation's caps (editor; audited). They hold from the next run on, in every process,
 * without a new version: `caps_revision` is part of the listeners' stamp (engine/listeners.ts).
 * Runs already held stay held until someone releases or discards them.
 */
export async function setCaps(caller: Caller, id: string, input: unknown): Promise<AutomationView> {
  assertRole(caller, "editor");
  const parsed = parseOrThrow(capsInput, input, "Those caps are not valid");
  return getDb().transaction(async (tx) => {
    const row = await loadRow(tx, caller.tenant.id, id, true);
    assertMayChange(caller, row);
    // Fields left out keep their value; null takes a limit off.
    const caps = capsFrom({
      maxRunsPerHour: parsed.maxRunsPerHour === undefined ? row.caps?.maxRunsPerHour : parsed.maxRunsPerHour,
      maxPerRecord: parsed.maxPerRecord === undefined ? row.caps?.maxPerRecord : parsed.maxPerRecord,
      pauseOnStorm: parsed.pauseOnStorm ?? row.caps?.pauseOnStorm,
    });
    const [updated] = await tx
      .update(automations)
      .set({ caps, capsRevision: sql`${automations.capsRevision} + 1`, updatedAt: new Date() })
      .where(eq(automations.id, row.id))
      .returning();
    await recordAudit(tx, caller, {
      action: "automation.caps_set",
      ...automationSubject(updated!),
      detail: { name: updated!.name, caps: caps ?? {}, sentence: capsSentence(caps) },
    });
    return view(updated!);
  });
}
