import { actorLabel, type Caller } from "@/lib/identity/caller";
import type { DbOrTx } from "@/lib/db/client";
import { auditEvents } from "@/lib/db/schema";

/** Records who did what, in the caller's transaction (so the record and the change commit together). */
export async function recordAudit(
  tx: DbOrTx,
  caller: Caller,
  event: { action: string; subjectType: string; subjectId: string; detail?: Record<string, unknown> },
): Promise<void> {
  await tx.insert(auditEvents).values({
    tenantId: caller.tenant.id,
    actor: actorLabel(caller.actor),
    action: event.action,
    subjectType: event.subjectType,
    subjectId: event.subjectId,
    detail: event.detail ?? {},
  });
}

/** Who the audit log names for what Tillflow does by itself (a storm's pause, a reminder sent). */
export const TILLFLOW_ACTOR = "Tillflow";
