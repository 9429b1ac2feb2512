import { eq } from "drizzle-orm";
import { recordAudit } from "@/lib/audit";
import { getDb } from "@/lib/db/client";
import { automations, tenants } from "@/lib/db/schema";
import { assertRole, type Caller } from "@/lib/identity/caller";
import { notFound, parseOrThrow } from "@/lib/errors";
import { assertMayChange } from "@/lib/automations/lifecycle/guards";
import { automationSubject, loadRow } from "@/lib/automations/lifecycle/read";
import {
  automationMessagingInput,
  messagingInput,
  messagingOf,
  messagingSentence,
  type MessagingSettings,
  type Priority,
} from "./settings";

/** The shop's quiet hours and cap, defaults filled in. */
export async function shopMessaging(tenantId: string): Promise<MessagingSettings & { sentence: string }> {
  const [row] = await getDb()
    .select({ messaging: tenants.messaging })
    .from(tenants)
    .where(eq(tenants.id, tenantId));
  if (!row) throw notFound("The shop");
  const settings = messagingOf(row.messaging);
  return { ...settings, sentence: messagingSentence(settings) };
}

/** Sets quiet hours and/or the shop's cap (admin; audited). A part left out keeps its value. */
export async function setShopMessaging(
  caller: Caller,
  input: unknown,
): Promise<MessagingSettings & { sentence: string }> {
  assertRole(caller, "admin");
  const parsed = parseOrThrow(messagingInput, input, "Those quiet hours or that cap are not valid");
  return getDb().transaction(async (tx) => {
    const [row] = await tx
      .select({ messaging: tenants.messaging })
      .from(tenants)
      .where(eq(tenants.id, caller.tenant.id))
      .for("update");
    if (!row) throw notFound("The shop");
    const before = messagingOf(row.messaging);
    const after: MessagingSettings = {
      quietHours: parsed.quietHours === undefined ? before.quietHours : parsed.quietHours,
      cap: parsed.cap === undefined ? before.cap : parsed.cap,
    };
    await tx.update(tenants).set({ messaging: after }).where(eq(tenants.id, caller.tenant.id));
    const sentence = messagingSentence(after);
    await recordAudit(tx, caller, {
      action: "shop.messaging_set",
      subjectType: "shop",
      subjectId: caller.tenant.id,
      detail: { before, after, sentence },
    });
    return { ...after, sentence };
  });
}

export interface AutomationMessaging {
  priority: Priority;
  expireAfterHours: number;
}

/** An automation's message priority and expiry (editor; audited), at once, without a new version. */
export async function setAutomationMessaging(
  caller: Caller,
  id: string,
  input: unknown,
): Promise<AutomationMessaging> {
  assertRole(caller, "editor");
  const parsed = parseOrThrow(automationMessagingInput, input, "That priority or expiry is not valid");
  return getDb().transaction(async (tx) => {
    const row = await loadRow(tx, caller.tenant.id, id, true);
    assertMayChange(caller, row);
    const next = {
      messagePriority: parsed.priority ?? row.messagePriority,
      expireAfterHours: parsed.expireAfterHours ?? row.expireAfterHours,
    };
    const [updated] = await tx
      .update(automations)
      .set({ ...next, updatedAt: new Date() })
      .where(eq(automations.id, row.id))
      .returning();
    await recordAudit(tx, caller, {
      action: "automation.messaging_set",
      ...automationSubject(updated!),
      detail: {
        name: updated!.name,
        priority: next.messagePriority,
        expireAfterHours: next.expireAfterHours,
      },
    });
    return { priority: next.messagePriority, expireAfterHours: next.expireAfterHours };
  });
}
