import type { Metadata } from "next";
import Link from "next/link";
import { and, asc, eq, ne } from "drizzle-orm";
import { AlertActions } from "@/components/settings/alert-actions";
import { AlertForm, type AlertFormRule } from "@/components/settings/alert-form/alert-form";
import { firstParam } from "@/components/entities/fields";
import { Badge } from "@/components/ui/badge";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Notice } from "@/components/ui/notice";
import { TBody, TD, TH, THead, TR, Table } from "@/components/ui/table";
import { listAlertRules, type AlertChannelView, type AlertRuleView } from "@/lib/alerts/rules";
import { requireCaller } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { automations, credentials } from "@/lib/db/schema";
import { hasRole } from "@/lib/identity/roles";

export const metadata: Metadata = { title: "Alerts" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

function channelWords(channel: AlertChannelView): string {
  switch (channel.type) {
    case "email":
      return "Email to the shop's staff";
    case "slack":
      return `Slack: ${channel.credentialName ?? "a deleted credential"}${channel.channel ? ` (${channel.channel})` : ""}`;
    case "webhook":
      return `Webhook: ${channel.url}`;
  }
}

function formRule(rule: AlertRuleView): AlertFormRule {
  const channel: AlertFormRule["channel"] =
    rule.channel.type === "webhook"
      ? { type: "webhook", url: rule.channel.url }
      : rule.channel.type === "slack"
        ? { type: "slack", credentialId: rule.channel.credentialId, channel: rule.channel.channel }
        : { type: "email" };
  return {
    id: rule.id,
    kind: rule.kind,
    automationId: rule.automationId,
    params: rule.params,
    enabled: rule.enabled,
    channel,
  };
}

export default async function AlertsPage({ searchParams }: { searchParams: SearchParams }) {
  const caller = await requireCaller();
  const canWrite = hasRole(caller.role, "admin");
  const rules = await listAlertRules(caller);
  const editId = firstParam((await searchParams).edit);
  const editing = canWrite ? rules.find((r) => r.id === editId) : undefined;
  const [picker, slack] = canWrite
    ? await Promise.all([
        getDb()
          .select({ id: automations.id, name: automations.name })
          .from(automations)
          .where(and(eq(automations.tenantId, caller.tenant.id), ne(automations.status, "archived")))
          .orderBy(asc(automations.name)),
        getDb()
          .select({ id: credentials.id, name: credentials.name })
          .from(credentials)
          .where(and(eq(credentials.tenantId, caller.tenant.id), eq(credentials.kind, "slack_webhook")))
          .orderBy(asc(credentials.name)),
      ])
    : [[], []];

  return (
    <div className="space-y-6">
      {canWrite ? (
        <AlertForm
          key={editing?.id ?? "new"}
          automations={picker}
          slackCredentials={slack}
          initial={editing ? formRule(editing) : undefined}
        />
      ) : (
        <Notice tone="info">
          Admins add and change alerts. You can see what is watched and where alerts go, and read what was
          sent in the history.
        </Notice>
      )}
      <Card>
        <CardHeader
          title="Alerts"
          description="Checked every minute. Each alert is sent once per digest, silence or hour, and kept in the history."
          actions={
            <Link
              href="/settings/alerts/history"
              className="text-sm font-medium text-indigo-700 hover:underline"
            >
              History
            </Link>
          }
        />
        {rules.length === 0 ? (
          <EmptyState title="No alerts yet">
            <p>
              An alert tells you when runs fail, when an automation that usually runs goes quiet, when one
              starts far more runs than usual, or when waits and approvals are overdue — by email, Slack or a
              signed webhook.
            </p>
            <p>
              {canWrite
                ? "Start with “Failed runs” for every automation, sent to the shop's staff by email."
                : "Ask an admin to add one."}
            </p>
          </EmptyState>
        ) : (
          <Table caption="Alerts">
            <THead>
              <TR>
                <TH>Alert me when</TH>
                <TH>Automation</TH>
                <TH>Send to</TH>
                <TH>State</TH>
                {canWrite && (
                  <TH align="right">
                    <span className="sr-only">Actions</span>
                  </TH>
                )}
              </TR>
            </THead>
            <TBody>
              {rules.map((rule) => (
                <TR key={rule.id} data-testid="alert-row">
                  <TD>
                    <span className="block font-medium text-zinc-900">{rule.kindLabel}</span>
                    <span className="text-xs text-zinc-600">{rule.sentence}</span>
                  </TD>
                  <TD>
                    {rule.automationId ? (rule.automationName ?? "A deleted automation") : "Every automation"}
                  </TD>
                  <TD className="break-all">{channelWords(rule.channel)}</TD>
                  <TD>{rule.enabled ? <Badge tone="success">On</Badge> : <Badge tone="quiet">Off</Badge>}</TD>
                  {canWrite && (
                    <TD align="right">
                      <AlertActions
                        id={rule.id}
                        sentence={`${rule.kindLabel}, ${rule.automationName ?? "every automation"}`}
                      />
                    </TD>
                  )}
                </TR>
              ))}
            </TBody>
          </Table>
        )}
      </Card>
    </div>
  );
}
