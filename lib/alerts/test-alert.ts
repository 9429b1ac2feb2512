import "server-only";
import crypto from "node:crypto";
import { and, eq } from "drizzle-orm";
import { appUrl } from "@/lib/auth/auth";
import { getDb } from "@/lib/db/client";
import { alertRules, automations } from "@/lib/db/schema";
import { isUuid, notFound } from "@/lib/errors";
import { assertRole, type Caller } from "@/lib/identity/caller";
import { KIND_LABELS } from "./kinds";
import { recordAlerts } from "./record";

/**
 * "Send a test alert" (admin): one alert through the rule's channel now, kept in the history like
 * any other, so an admin sees the email, the Slack message or the webhook's signature work before
 * a real one is needed. Its dedupe key is fresh each time; it counts toward no digest.
 */
export async function sendTestAlert(caller: Caller, id: string): Promise<{ alertId: string }> {
  assertRole(caller, "admin");
  if (!isUuid(id)) throw notFound("That alert");
  return getDb().transaction(async (tx) => {
    const [rule] = await tx
      .select()
      .from(alertRules)
      .where(and(eq(alertRules.tenantId, caller.tenant.id), eq(alertRules.id, id)));
    if (!rule) throw notFound("That alert");
    const [automation] = rule.automationId
      ? await tx
          .select({ name: automations.name })
          .from(automations)
          .where(eq(automations.id, rule.automationId))
      : [];
    const name = automation?.name ?? "Every automation";
    const origin = appUrl();
    const [alertId] = await recordAlerts(
      tx,
      [
        {
          tenantId: caller.tenant.id,
          ruleId: rule.id,
          automationId: null,
          automationName: name,
          kind: rule.kind,
          message: `This is a test of the '${KIND_LABELS[rule.kind].label}' alert for '${name}': real ones look like this.`,
          count: 0,
          runsUrl: rule.automationId ? `${origin}/automations/${rule.automationId}/runs` : `${origin}/runs`,
          channel: rule.channel.type,
          dedupeKey: `test:${rule.id}:${crypto.randomUUID()}`,
          windowEnd: null,
        },
      ],
      new Date(),
    );
    return { alertId: alertId! };
  });
}
