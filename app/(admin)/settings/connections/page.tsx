import type { Metadata } from "next";
import Link from "next/link";
import { ConnectStoreForm } from "@/components/settings/connect-store-form";
import { ConnectionUrl } from "@/components/settings/connection-url";
import { ConnectionWritesForm } from "@/components/settings/connection-writes-form";
import {
  DisconnectButton,
  RepairWebhooksButton,
  SendTestDeliveryButton,
} from "@/components/settings/connection-buttons";
import { AutoRefresh } from "@/components/runs/auto-refresh";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Notice } from "@/components/ui/notice";
import { RelativeTime } from "@/components/ui/relative-time";
import { TBody, TD, TH, THead, TR, Table } from "@/components/ui/table";
import { requireCaller } from "@/lib/auth/session";
import {
  DELIVERY_RESULT_LABELS,
  PLATFORM_LABELS,
  type DeliveryResultName,
} from "@/lib/connections/platforms";
import {
  connectionSubscriptions,
  listConnections,
  listDeliveries,
  type ConnectionView,
  type DeliveryView,
} from "@/lib/connections/store";
import type { SubscriptionsView } from "@/lib/connections/subscriptions";
import { masked } from "@/lib/credentials/kinds";
import { DOMAIN_LABELS, isDomain } from "@/lib/domains/domains";
import { hasRole } from "@/lib/identity/roles";

export const metadata: Metadata = { title: "Connections" };

const RESULT_TONES: Record<DeliveryResultName, BadgeTone> = {
  received: "info",
  applied: "success",
  duplicate: "quiet",
  stale: "warning",
  refused: "danger",
};

/** Where a stored record has a page of its own. */
const RECORD_PAGES: Partial<Record<string, string>> = { order: "/orders", customer: "/customers" };

const SHOWN_DELIVERIES = 25;

/**
 * Whether a delivery that just came is still being applied: the page refreshes itself until it is.
 * One stuck for longer stays listed as received, without the page reloading itself for ever.
 */
function beingApplied(deliveries: DeliveryView[]): boolean {
  const since = Date.now() - 5 * 60_000;
  return deliveries.some((d) => d.result === "received" && Date.parse(d.at) > since);
}

export default async function ConnectionsPage() {
  const caller = await requireCaller();
  const canWrite = hasRole(caller.role, "editor");
  const connections = await listConnections(caller.tenant.id);
  const withDeliveries = await Promise.all(
    connections.map(async (connection) => ({
      connection,
      deliveries: (await listDeliveries(caller.tenant.id, connection.id, { limit: SHOWN_DELIVERIES })).items,
      // Asked of the store with the connection's token or key (issue 52): which topics deliver here now.
      subscriptions: connection.writes
        ? await connectionSubscriptions(caller.tenant.id, connection.id)
        : null,
    })),
  );
  const processing = withDeliveries.some(({ deliveries }) => beingApplied(deliveries));

  return (
    <div className="space-y-6">
      {processing && <AutoRefresh everyMs={1_500} />}
      {canWrite ? (
        <ConnectStoreForm />
      ) : (
        <Notice tone="info">
          Editors and admins connect and disconnect stores. You can see the connected stores and what each
          delivery did; nobody can see their secrets.
        </Notice>
      )}
      {withDeliveries.length === 0 ? (
        <Card>
          <EmptyState title="No store connected yet">
            <p>
              Connect your Shopify or WooCommerce store and its orders, customers and products arrive here as
              they happen — with every field the store sends, so a flow can test the shipping country, a
              discount code or a note on the order.
            </p>
            <p>
              {canWrite
                ? "Choose the platform above, paste the store's webhook secret, then paste the URL Tillflow gives you into the store's webhook settings."
                : "Ask an editor or an admin to connect the shop's store."}
            </p>
          </EmptyState>
        </Card>
      ) : (
        withDeliveries.map(({ connection, deliveries, subscriptions }) => (
          <ConnectionCard
            key={connection.id}
            connection={connection}
            deliveries={deliveries}
            subscriptions={subscriptions}
            canWrite={canWrite}
          />
        ))
      )}
    </div>
  );
}

function ConnectionCard({
  connection,
  deliveries,
  subscriptions,
  canWrite,
}: {
  connection: ConnectionView;
  deliveries: DeliveryView[];
  subscriptions: SubscriptionsView | null;
  canWrite: boolean;
}) {
  const platform = PLATFORM_LABELS[connection.platform].label;
  return (
    <Card>
      <CardHeader
        title={connection.name}
        description={`${platform} · connected by ${connection.createdBy}`}
        actions={
          canWrite ? (
            <span className="inline-flex items-start gap-2">
              <SendTestDeliveryButton id={connection.id} name={connection.name} />
              <DisconnectButton
                id={connection.id}
                name={connection.name}
                platform={platform}
                removesWebhooks={subscriptions !== null}
              />
            </span>
          ) : undefined
        }
      />
      <CardBody className="space-y-4">
        <dl className="grid gap-3 text-sm sm:grid-cols-[max-content_1fr] sm:gap-x-6">
          <dt className="font-medium text-zinc-700">Webhook URL</dt>
          <dd>
            <ConnectionUrl url={connection.url} />
          </dd>
          <dt className="font-medium text-zinc-700">Secret</dt>
          <dd>
            <code className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-xs text-zinc-700">
              {masked(connection.credential.last4)}
            </code>{" "}
            <span className="text-zinc-600">
              kept as the credential “{connection.credential.name}”; rotate it in{" "}
              <Link href="/settings/credentials" className="text-indigo-700 underline">
                Credentials
              </Link>{" "}
              when {platform} shows a new one.
            </span>
          </dd>
          <dt className="font-medium text-zinc-700">Writes back</dt>
          <dd data-testid="connection-writes">
            {connection.writes ? (
              <>
                <code className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-xs text-zinc-700">
                  {masked(connection.writes.last4)}
                </code>{" "}
                <span className="text-zinc-600">
                  “{connection.writes.name}”, sent only to {connection.writes.host}: store steps can write
                  tags, notes, holds and metafields there.
                </span>
              </>
            ) : (
              <span className="text-zinc-600">
                No — this store only sends to Tillflow.{" "}
                {canWrite
                  ? `Add ${connection.platform === "shopify" ? "an Admin API token" : "a REST API key"} to let store steps write to it and let Tillflow make its webhooks.`
                  : "An editor can add a key that lets store steps write to it."}
              </span>
            )}
            {/* Outside the branches: it stays mounted (and says what it did) once the key is saved. */}
            {canWrite && (
              <ConnectionWritesForm
                id={connection.id}
                name={connection.name}
                platform={connection.platform}
                {...(connection.writes ? { host: connection.writes.host } : {})}
              />
            )}
          </dd>
        </dl>
        {subscriptions && (
          <SubscriptionsTable
            name={connection.name}
            platform={platform}
            connectionId={connection.id}
            subscriptions={subscriptions}
            canWrite={canWrite}
          />
        )}
        {deliveries.length === 0 ? (
          <EmptyState title="Nothing delivered yet">
            <p>
              {subscriptions
                ? `Tillflow made this store's webhooks: the next order, customer or product change in ${platform} appears here.`
                : PLATFORM_LABELS[connection.platform].setup}
            </p>
            {canWrite && <p>Or send a test delivery to see what an order from your store does here.</p>}
          </EmptyState>
        ) : (
          <DeliveriesTable name={connection.name} deliveries={deliveries} />
        )}
      </CardBody>
    </Card>
  );
}

function SubscriptionsTable({
  name,
  platform,
  connectionId,
  subscriptions,
  canWrite,
}: {
  name: string;
  platform: string;
  connectionId: string;
  subscriptions: SubscriptionsView;
  canWrite: boolean;
}) {
  const missing = subscriptions.items.filter((s) => s.state !== "active").length;
  return (
    <section aria-label={`Webhooks of ${name} in ${platform}`} className="space-y-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-sm font-semibold text-zinc-900">Webhooks in {platform}</h3>
        {canWrite && missing > 0 && <RepairWebhooksButton id={connectionId} name={name} missing={missing} />}
      </div>
      {subscriptions.error && <Notice tone="warning">{subscriptions.error}</Notice>}
      <p className="text-sm text-zinc-600">
        {missing === 0
          ? `All ${subscriptions.items.length} topics Tillflow reads deliver to this connection.`
          : `${missing} of ${subscriptions.items.length} topics do not deliver here: Repair creates them again (or sets a paused one active).`}
      </p>
      <ul className="flex flex-wrap gap-1.5" data-testid="subscriptions">
        {subscriptions.items.map((s) => (
          <li key={s.topic} data-testid="subscription" data-state={s.state}>
            <Badge tone={s.state === "active" ? "success" : "warning"} dot>
              {s.state === "active" ? s.topic : `${s.topic} · ${s.state}`}
            </Badge>
          </li>
        ))}
      </ul>
    </section>
  );
}

function RecordCell({ delivery }: { delivery: DeliveryView }) {
  const record =
    delivery.domain && delivery.entityId ? { domain: delivery.domain, id: delivery.entityId } : null;
  if (!record) return <span className="text-zinc-400">—</span>;
  const label = isDomain(record.domain) ? DOMAIN_LABELS[record.domain].one : record.domain;
  const page = RECORD_PAGES[record.domain];
  const text = `${label[0]!.toUpperCase()}${label.slice(1)} ${record.id}`;
  return page ? (
    <Link href={`${page}/${encodeURIComponent(record.id)}`} className="text-indigo-700 hover:underline">
      {text}
    </Link>
  ) : (
    <span>{text}</span>
  );
}

function DeliveriesTable({ name, deliveries }: { name: string; deliveries: DeliveryView[] }) {
  return (
    <Table caption={`Latest deliveries from ${name}`}>
      <THead>
        <TR>
          <TH>Received</TH>
          <TH>Topic</TH>
          <TH>Record</TH>
          <TH>Result</TH>
          <TH>Why</TH>
        </TR>
      </THead>
      <TBody>
        {deliveries.map((d) => (
          <TR key={d.id} data-testid="delivery-row">
            <TD className="whitespace-nowrap">
              <RelativeTime value={d.at} />
            </TD>
            <TD>
              <code className="font-mono text-xs text-zinc-700">{d.topic}</code>
            </TD>
            <TD className="whitespace-nowrap">
              <RecordCell delivery={d} />
            </TD>
            <TD>
              <Badge tone={RESULT_TONES[d.result]} dot>
                {DELIVERY_RESULT_LABELS[d.result]}
              </Badge>
            </TD>
            <TD className="max-w-md text-zinc-600">
              {d.reason ?? (d.result === "received" ? "Being applied…" : "")}
            </TD>
          </TR>
        ))}
      </TBody>
    </Table>
  );
}
