import type { Metadata } from "next";
import { CreateApiKeyForm } from "@/components/settings/create-api-key-form";
import { RevokeApiKeyButton } from "@/components/settings/revoke-api-key-button";
import { RoleBadge } from "@/components/shell/role-badge";
import { Badge } from "@/components/ui/badge";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Notice } from "@/components/ui/notice";
import { RelativeTime } from "@/components/ui/relative-time";
import { TBody, TD, TH, THead, TR, Table } from "@/components/ui/table";
import { listApiKeys, type ApiKeySummary } from "@/lib/auth/api-keys";
import { hasRole } from "@/lib/identity/roles";
import { requireCaller } from "@/lib/auth/session";

export const metadata: Metadata = { title: "API keys" };

export default async function ApiKeysPage() {
  const caller = await requireCaller();
  const isAdmin = hasRole(caller.role, "admin");
  const keys = await listApiKeys(caller.tenant.id);

  return (
    <div className="space-y-6">
      {isAdmin ? (
        <CreateApiKeyForm />
      ) : (
        <Notice tone="info">
          Only an admin can create or revoke API keys, because a key acts for the whole shop. You can see
          which keys exist and when they were last used.
        </Notice>
      )}
      <Card>
        <CardHeader
          title="Keys"
          description="Tillflow stores only a fingerprint of each key; the prefix helps you tell them apart."
        />
        {keys.length === 0 ? (
          <EmptyState title="No API keys yet">
            <p>
              {isAdmin
                ? "Create a key above to let your store or another app send orders and events to Tillflow."
                : "Ask an admin to create one when an app needs to reach the Tillflow API."}
            </p>
          </EmptyState>
        ) : (
          <KeysTable keys={keys} canRevoke={isAdmin} />
        )}
      </Card>
    </div>
  );
}

function KeysTable({ keys, canRevoke }: { keys: ApiKeySummary[]; canRevoke: boolean }) {
  return (
    <Table caption="API keys">
      <THead>
        <TR>
          <TH>Name</TH>
          <TH>Key</TH>
          <TH>Role</TH>
          <TH>Created</TH>
          <TH>Last used</TH>
          <TH>Status</TH>
          {canRevoke && (
            <TH align="right">
              <span className="sr-only">Actions</span>
            </TH>
          )}
        </TR>
      </THead>
      <TBody>
        {keys.map((key) => (
          <TR key={key.id} data-testid="api-key-row" className={key.revokedAt ? "text-zinc-500" : undefined}>
            <TD className="font-medium text-zinc-900">{key.name}</TD>
            <TD>
              <code className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-xs text-zinc-700">
                {key.prefix}…
              </code>
            </TD>
            <TD>
              <RoleBadge role={key.role} />
            </TD>
            <TD className="whitespace-nowrap">
              <RelativeTime value={key.createdAt} />
            </TD>
            <TD className="whitespace-nowrap">
              {key.lastUsedAt ? (
                <RelativeTime value={key.lastUsedAt} />
              ) : (
                <span className="text-zinc-400">Never</span>
              )}
            </TD>
            <TD className="whitespace-nowrap">
              {key.revokedAt ? (
                <span className="inline-flex items-center gap-2">
                  <Badge tone="danger" dot>
                    Revoked
                  </Badge>
                  <RelativeTime value={key.revokedAt} className="text-xs text-zinc-500" />
                </span>
              ) : (
                <Badge tone="success" dot>
                  Active
                </Badge>
              )}
            </TD>
            {canRevoke && (
              <TD align="right">
                {!key.revokedAt && <RevokeApiKeyButton id={key.id} name={key.name} prefix={key.prefix} />}
              </TD>
            )}
          </TR>
        ))}
      </TBody>
    </Table>
  );
}
