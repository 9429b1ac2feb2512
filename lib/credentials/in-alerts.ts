import "server-only";
import { and, asc, eq, sql } from "drizzle-orm";
import { ruleSentence } from "@/lib/alerts/kinds";
import type { DbOrTx } from "@/lib/db/client";
import { alertRules, automations } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";

/**
 * Where a credential is the channel of alert rules (a Slack channel names it): rotating or
 * deleting it would send the shop's alerts elsewhere or silence them, so an admin must confirm
 * (issue 47). Read in the transaction that rotates or deletes.
 */

/** The alert rules that send through a credential (a Slack channel naming it), in words. */
export async function alertRulesUsing(db: DbOrTx, tenantId: string, credentialId: string): Promise<string[]> {
  const rows = await db
    .select({ kind: alertRules.kind, params: alertRules.params, automation: automations.name })
    .from(alertRules)
    .leftJoin(automations, eq(automations.id, alertRules.automationId))
    .where(
      and(
        eq(alertRules.tenantId, tenantId),
        sql`${alertRules.channel} ->> 'type' = 'slack'`,
        sql`${alertRules.channel} ->> 'credentialId' = ${credentialId}`,
      ),
    )
    .orderBy(asc(alertRules.createdAt));
  return rows.map(
    (r) =>
      `'${ruleSentence(r.kind, r.params)}' (${r.automation ? `on '${r.automation}'` : "on every automation"})`,
  );
}

/** A 409 naming the alert rules that send through the credential; an admin confirms to go ahead. */
export async function refuseWhileAlertsUse(
  db: DbOrTx,
  tenantId: string,
  row: { id: string; name: string },
  verb: "rotate" | "delete",
): Promise<void> {
  const rules = await alertRulesUsing(db, tenantId, row.id);
  if (rules.length === 0) return;
  const which = rules.length === 1 ? `the alert rule ${rules[0]}` : `the alert rules ${rules.join(", ")}`;
  const flag = verb === "delete" ? "?confirm=true" : "confirm: true";
  throw new AppError(
    409,
    "conflict",
    `'${row.name}' is where ${which} sends its alerts; to ${verb} it anyway, confirm (${flag}) — ${verb === "delete" ? "the rule then sends nothing until it is given another channel" : "the alerts then go to the new URL"}.`,
  );
}
