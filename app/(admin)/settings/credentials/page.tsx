import type { Metadata } from "next";
import Link from "next/link";
import { CreateCredentialForm } from "@/components/settings/create-credential-form";
import { DeleteCredentialButton } from "@/components/settings/delete-credential-button";
import { EditHostsButton } from "@/components/settings/edit-hosts-button";
import { RotateCredentialButton } from "@/components/settings/rotate-credential-button";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Notice } from "@/components/ui/notice";
import { RelativeTime } from "@/components/ui/relative-time";
import { TBody, TD, TH, THead, TR, Table } from "@/components/ui/table";
import { hasRole } from "@/lib/identity/roles";
import { requireCaller } from "@/lib/auth/session";
import { KIND_LABELS, masked } from "@/lib/credentials/kinds";
import { allowedHost, needsHosts } from "@/lib/credentials/hosts";
import { alertRulesUsing } from "@/lib/credentials/in-alerts";
import { automationsUsing, listCredentials, type CredentialView } from "@/lib/credentials/store";
import { getDb } from "@/lib/db/client";

export const metadata: Metadata = { title: "Credentials" };

type Listed = CredentialView & { usedBy: { id: string; name: string }[]; alertRules: string[] };

export default async function CredentialsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const caller = await requireCaller();
  // Admins only: an editor who could add, rotate or re-host a credential would choose where it goes.
  const canWrite = hasRole(caller.role, "admin");
  const db = getDb();
  const listed: Listed[] = await Promise.all(
    (await listCredentials(caller.tenant.id, db)).map(async (credential) => ({
      ...credential,
      usedBy: await automationsUsing(db, caller.tenant.id, credential.id),
      alertRules: await alertRulesUsing(db, caller.tenant.id, credential.id),
    })),
  );
  // Opened from an HTTP step's "Manage credentials": its URL's host is proposed as the first host.
  const asked = (await searchParams).host;
  const proposed = typeof asked === "string" ? allowedHost.safeParse(asked) : null;

  return (
    <div className="space-y-6">
      {canWrite ? (
        <CreateCredentialForm proposedHost={proposed?.success ? proposed.data : undefined} />
      ) : (
        <Notice tone="info">
          Admins add, rotate and delete credentials and choose the hosts each may be sent to. You can see
          which ones exist, where they may go and which automations use them
          {hasRole(caller.role, "editor") ? ", and choose them in a step" : ""}; nobody can see their values.
        </Notice>
      )}
      <Card>
        <CardHeader
          title="Credentials"
          description="Values are encrypted and never shown again, to anyone: only the last 4 characters help you tell them apart."
        />
        {listed.length === 0 ? (
          <EmptyState title="No credentials yet">
            <p>
              Store API keys and signing secrets here; flows refer to them by name and never show the value.
            </p>
            <p>
              {canWrite
                ? "Add one above, then choose it in a step's settings: “Credential” on Send HTTP request, “Signing secret” on Webhook received."
                : "Ask an admin to add one when a flow needs to call another system."}
            </p>
          </EmptyState>
        ) : (
          <CredentialsTable credentials={listed} canWrite={canWrite} />
        )}
      </Card>
    </div>
  );
}

function CredentialsTable({ credentials, canWrite }: { credentials: Listed[]; canWrite: boolean }) {
  return (
    <Table caption="Credentials">
      <THead>
        <TR>
          <TH>Name</TH>
          <TH>Kind</TH>
          <TH>Value</TH>
          <TH>Allowed hosts</TH>
          <TH>Created</TH>
          <TH>Rotated</TH>
          <TH>Used by</TH>
          {canWrite && (
            <TH align="right">
              <span className="sr-only">Actions</span>
            </TH>
          )}
        </TR>
      </THead>
      <TBody>
        {credentials.map((c) => (
          <TR key={c.id} data-testid="credential-row">
            <TD className="font-medium text-zinc-900">{c.name}</TD>
            <TD className="whitespace-nowrap">{KIND_LABELS[c.kind].label}</TD>
            <TD>
              <code className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-xs text-zinc-700">
                {masked(c.last4)}
              </code>
            </TD>
            <TD data-testid="credential-hosts">
              {c.allowedHosts.length > 0 ? (
                <span className="font-mono text-xs text-zinc-700">{c.allowedHosts.join(", ")}</span>
              ) : needsHosts(c.kind) ? (
                <span className="text-amber-700">None yet: sent nowhere</span>
              ) : (
                <span className="text-zinc-400">Never sent</span>
              )}
            </TD>
            <TD>
              <span className="block">{c.createdBy}</span>
              <RelativeTime value={c.createdAt} className="text-xs whitespace-nowrap" />
            </TD>
            <TD className="whitespace-nowrap">
              {c.rotatedAt ? (
                <RelativeTime value={c.rotatedAt} />
              ) : (
                <span className="text-zinc-400">Never</span>
              )}
            </TD>
            <TD>
              {c.usedBy.length === 0 ? (
                <span className="text-zinc-400">No automation</span>
              ) : (
                <ul className="space-y-0.5">
                  {c.usedBy.map((a) => (
                    <li key={a.id}>
                      <Link href={`/automations/${a.id}`} className="text-indigo-700 hover:underline">
                        {a.name}
                      </Link>
                    </li>
                  ))}
                </ul>
              )}
            </TD>
            {canWrite && (
              <TD align="right">
                <span className="inline-flex items-start gap-2">
                  {needsHosts(c.kind) && (
                    <EditHostsButton id={c.id} name={c.name} allowedHosts={c.allowedHosts} />
                  )}
                  <RotateCredentialButton
                    id={c.id}
                    name={c.name}
                    kind={c.kind}
                    last4={c.last4}
                    alertRules={c.alertRules}
                  />
                  <DeleteCredentialButton
                    id={c.id}
                    name={c.name}
                    last4={c.last4}
                    usedBy={c.usedBy.map((a) => a.name)}
                    alertRules={c.alertRules}
                  />
                </span>
              </TD>
            )}
          </TR>
        ))}
      </TBody>
    </Table>
  );
}
