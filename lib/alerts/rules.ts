import "server-only";
import { and, asc, eq } from "drizzle-orm";
import { recordAudit } from "@/lib/audit";
import { getDb, type DbOrTx } from "@/lib/db/client";
import {
  alertRules,
  automations,
  credentials,
  type AlertParams,
  type StoredAlertChannel,
} from "@/lib/db/schema";
import { AppError, isUuid, notFound, parseOrThrow } from "@/lib/errors";
import { assertRole, actorLabel, type Caller } from "@/lib/identity/caller";
import { hasRole } from "@/lib/identity/roles";
import { seal } from "@/lib/credentials/secret-box";
import { allowsHost } from "@/lib/net/allow-list";
import { createAlertInput, KIND_LABELS, ruleSentence, updateAlertInput, type ChannelInput } from "./kinds";

/**
 * A shop's alert rules (Settings → Alerts, `/api/v1/alerts`): admins change them, every role reads
 * them. A webhook's secret is write-only: sealed when stored and never in any reply; a viewer sees
 * a webhook's address only up to its host, since a path may carry a token.
 */

type RuleRow = typeof alertRules.$inferSelect;

/** A channel as a reply shows it: never a secret. */
export type AlertChannelView =
  | { type: "email" }
  | { type: "slack"; credentialId: string; credentialName: string | null; channel: string | null }
  | { type: "webhook"; url: string; secretSet: true };

export interface AlertRuleView {
  id: string;
  kind: RuleRow["kind"];
  kindLabel: string;
  automationId: string | null;
  /** The automation's name; null when the rule is about every automation of the shop. */
  automationName: string | null;
  channel: AlertChannelView;
  params: AlertParams;
  enabled: boolean;
  /** What the rule watches, in one sentence. */
  sentence: string;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
}

/** Where a webhook posts, as a viewer may see it: the address up to its host. */
function hostOnly(url: string): string {
  try {
    return `${new URL(url).origin}/…`;
  } catch {
    return "…";
  }
}

function channelView(
  channel: StoredAlertChannel,
  names: Map<string, string>,
  full: boolean,
): AlertChannelView {
  switch (channel.type) {
    case "email":
      return { type: "email" };
    case "slack":
      return {
        type: "slack",
        credentialId: channel.credentialId,
        credentialName: names.get(channel.credentialId) ?? null,
        channel: channel.channel ?? null,
      };
    case "webhook":
      return { type: "webhook", url: full ? channel.url : hostOnly(channel.url), secretSet: true };
  }
}

async function viewsOf(db: DbOrTx, caller: Caller, rows: RuleRow[]): Promise<AlertRuleView[]> {
  const tenantId = caller.tenant.id;
  const [autos, creds] = await Promise.all([
    db
      .select({ id: automations.id, name: automations.name })
      .from(automations)
      .where(eq(automations.tenantId, tenantId)),
    db
      .select({ id: credentials.id, name: credentials.name })
      .from(credentials)
      .where(eq(credentials.tenantId, tenantId)),
  ]);
  const autoNames = new Map(autos.map((a) => [a.id, a.name]));
  const credNames = new Map(creds.map((c) => [c.id, c.name]));
  const full = hasRole(caller.role, "editor");
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    kindLabel: KIND_LABELS[row.kind].label,
    automationId: row.automationId,
    automationName: row.automationId ? (autoNames.get(row.automationId) ?? null) : null,
    channel: channelView(row.channel, credNames, full),
    params: row.params,
    enabled: row.enabled,
    sentence: ruleSentence(row.kind, row.params),
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }));
}

export async function listAlertRules(caller: Caller): Promise<AlertRuleView[]> {
  const db = getDb();
  const rows = await db
    .select()
    .from(alertRules)
    .where(eq(alertRules.tenantId, caller.tenant.id))
    .orderBy(asc(alertRules.createdAt), asc(alertRules.id));
  return viewsOf(db, caller, rows);
}

async function loadRule(db: DbOrTx, tenantId: string, id: string): Promise<RuleRow> {
  if (!isUuid(id)) throw notFound("That alert");
  const [row] = await db
    .select()
    .from(alertRules)
    .where(and(eq(alertRules.tenantId, tenantId), eq(alertRules.id, id)));
  if (!row) throw notFound("That alert");
  return row;
}

export async function getAlertRule(caller: Caller, id: string): Promise<AlertRuleView> {
  const db = getDb();
  const [view] = await viewsOf(db, caller, [await loadRule(db, caller.tenant.id, id)]);
  return view!;
}

const unfit = (path: string, message: string) =>
  new AppError(422, "invalid", `The alert is invalid: ${message}`, [{ path, message }]);

/** The automation must be this shop's (another shop's is "not found", as if it did not exist). */
async function checkAutomation(db: DbOrTx, tenantId: string, id: string | null): Promise<void> {
  if (id === null) return;
  const [row] = await db
    .select({ status: automations.status })
    .from(automations)
    .where(and(eq(automations.tenantId, tenantId), eq(automations.id, id)));
  if (!row || row.status === "archived")
    throw unfit("automationId", "That automation was not found in this shop.");
}

/** The channel as stored: the Slack credential checked, a webhook's secret sealed. */
async function storedChannel(
  db: DbOrTx,
  tenantId: string,
  input: ChannelInput,
  before: StoredAlertChannel | null,
): Promise<StoredAlertChannel> {
  switch (input.type) {
    case "email":
      return { type: "email" };
    case "slack": {
      const [row] = await db
        .select({ kind: credentials.kind, name: credentials.name })
        .from(credentials)
        .where(and(eq(credentials.tenantId, tenantId), eq(credentials.id, input.credentialId)));
      if (!row) throw unfit("channel.credentialId", "That Slack credential was not found in this shop.");
      if (row.kind !== "slack_webhook")
        throw unfit("channel.credentialId", `'${row.name}' is not a Slack incoming webhook.`);
      return input.channel
        ? { type: "slack", credentialId: input.credentialId, channel: input.channel }
        : { type: "slack", credentialId: input.credentialId };
    }
    case "webhook": {
      const url = new URL(input.url);
      if (url.protocol !== "https:" && !(url.protocol === "http:" && allowsHost(url.hostname)))
        throw unfit("channel.url", "The webhook URL must start with https://.");
      const sealedSecret = input.secret
        ? seal(input.secret, tenantId)
        : before?.type === "webhook"
          ? before.sealedSecret
          : null;
      if (!sealedSecret)
        throw unfit(
          "channel.secret",
          "Give the webhook a signing secret (whsec_…) so its receiver can check alerts are yours.",
        );
      return { type: "webhook", url: input.url, sealedSecret };
    }
  }
}

/** What an audit entry says of a rule: never its secret. */
const auditDetail = (row: RuleRow) => ({
  kind: row.kind,
  automationId: row.automationId,
  channel: row.channel.type,
  sentence: ruleSentence(row.kind, row.params),
  enabled: row.enabled,
});

/** Adds a rule (admin; audited `alert.created`). */
export async function createAlertRule(caller: Caller, body: unknown): Promise<AlertRuleView> {
  assertRole(caller, "admin");
  const input = parseOrThrow(createAlertInput, body, "The alert is invalid");
  const db = getDb();
  const row = await db.transaction(async (tx) => {
    const automationId = input.automationId ?? null;
    await checkAutomation(tx, caller.tenant.id, automationId);
    const channel = await storedChannel(tx, caller.tenant.id, input.channel, null);
    const [inserted] = await tx
      .insert(alertRules)
      .values({
        tenantId: caller.tenant.id,
        kind: input.kind,
        automationId,
        channel,
        params: input.params,
        enabled: input.enabled,
        createdBy: actorLabel(caller.actor),
      })
      .returning();
    await recordAudit(tx, caller, {
      action: "alert.created",
      subjectType: "alert",
      subjectId: inserted!.id,
      detail: auditDetail(inserted!),
    });
    return inserted!;
  });
  const [view] = await viewsOf(db, caller, [row]);
  return view!;
}

/** Changes a rule (admin; audited `alert.updated`): fields left out keep their value. */
export async function updateAlertRule(caller: Caller, id: string, body: unknown): Promise<AlertRuleView> {
  assertRole(caller, "admin");
  const input = parseOrThrow(updateAlertInput, body, "The alert is invalid");
  const db = getDb();
  const row = await db.transaction(async (tx) => {
    const before = await loadRule(tx, caller.tenant.id, id);
    const automationId = input.automationId === undefined ? before.automationId : input.automationId;
    if (automationId !== before.automationId) await checkAutomation(tx, caller.tenant.id, automationId);
    const channel = input.channel
      ? await storedChannel(tx, caller.tenant.id, input.channel, before.channel)
      : before.channel;
    const [updated] = await tx
      .update(alertRules)
      .set({
        kind: input.kind ?? before.kind,
        automationId,
        channel,
        params: input.params ?? before.params,
        enabled: input.enabled ?? before.enabled,
        updatedAt: new Date(),
      })
      .where(eq(alertRules.id, before.id))
      .returning();
    await recordAudit(tx, caller, {
      action: "alert.updated",
      subjectType: "alert",
      subjectId: before.id,
      detail: auditDetail(updated!),
    });
    return updated!;
  });
  const [view] = await viewsOf(db, caller, [row]);
  return view!;
}

/** Deletes a rule (admin; audited `alert.deleted`); its alerts stay in the history. */
export async function deleteAlertRule(caller: Caller, id: string): Promise<{ id: string; deleted: true }> {
  assertRole(caller, "admin");
  await getDb().transaction(async (tx) => {
    const row = await loadRule(tx, caller.tenant.id, id);
    await tx.delete(alertRules).where(eq(alertRules.id, row.id));
    await recordAudit(tx, caller, {
      action: "alert.deleted",
      subjectType: "alert",
      subjectId: row.id,
      detail: auditDetail(row),
    });
  });
  return { id, deleted: true };
}

/** A rule as the sender reads it (no caller: the worker). */
export async function ruleForSending(tenantId: string, id: string): Promise<RuleRow | null> {
  const [row] = await getDb()
    .select()
    .from(alertRules)
    .where(and(eq(alertRules.tenantId, tenantId), eq(alertRules.id, id)));
  return row ?? null;
}
