import { and, eq, isNotNull, sql, type AnyColumn } from "drizzle-orm";
import type { Db, Tx } from "@/lib/db/client";
import {
  actionDeliveries,
  auditEvents,
  automationHookTokens,
  automations,
  automationVersions,
  credentials,
  dataMoves,
} from "@/lib/db/schema";
import type { Graph } from "@/lib/automations/graph/schema";
import { hostOfUrl } from "./hosts";
import { credentialFor, externaliseSecrets, type StoreSecret } from "./externalise";
import { headerCredentialValue, isSecretHeader } from "./kinds";
import { lastFour, seal } from "./secret-box";

/**
 * The one-time move of secrets written before credentials existed (SPEC §2 "Credentials"): the
 * plain webhook secrets and `Authorization`-like headers in drafts, published graphs, every
 * version snapshot, the webhook URLs' table and recorded HTTP deliveries become credentials,
 * referred to by id, and the plain values are overwritten. Run by `migrateDatabase` after the
 * SQL migrations until it has finished once (`data_moves`); idempotent, one transaction per shop,
 * so a move cut short runs again at the next start. A secret that appears in many snapshots
 * becomes one credential.
 */

const MOVED_BY = "Tillflow (moved from a flow)";

/** The rows that may hold a plain secret: a cheap text filter, `findPlainSecrets` decides. */
const mayHoldSecret = (column: AnyColumn) =>
  sql`(${column}::text like '%"secret"%' or ${column}::text like '%"headers"%')`;

function storeFor(tx: Tx, tenantId: string, counter: { moved: number }): StoreSecret {
  return async ({ name, kind, value, allowedHosts }) => {
    const [row] = await tx
      .insert(credentials)
      .values({
        tenantId,
        name,
        kind,
        value: seal(value, tenantId),
        last4: lastFour(value),
        createdBy: MOVED_BY,
        allowedHosts,
      })
      .returning({ id: credentials.id });
    counter.moved++;
    return row!.id;
  };
}

async function tenantsWithSecrets(db: Db): Promise<string[]> {
  const rows = await db.execute<{ tenant_id: string }>(sql`
    select tenant_id from ${automations}
      where ${mayHoldSecret(automations.draftGraph)} or ${mayHoldSecret(automations.activeGraph)}
    union select tenant_id from ${automationVersions} where ${mayHoldSecret(automationVersions.graph)}
    union select tenant_id from ${automationHookTokens} where ${automationHookTokens.secret} is not null
    union select tenant_id from ${actionDeliveries}
      where ${actionDeliveries.nodeType} = 'auto.action.http_request' and ${actionDeliveries.request} ? 'headers'
        and ${actionDeliveries.request}->'headers' <> '{}'::jsonb`);
  return rows.map((r) => r.tenant_id);
}

async function moveForTenant(tx: Tx, tenantId: string): Promise<number> {
  const counter = { moved: 0 };
  const owner = { tenantId, store: storeFor(tx, tenantId, counter) };
  const reuse = new Map<string, string>();
  const move = (graph: Graph, name: string) => externaliseSecrets(tx, owner, graph, name, reuse);

  const rows = await tx
    .select()
    .from(automations)
    .where(
      and(
        eq(automations.tenantId, tenantId),
        sql`(${mayHoldSecret(automations.draftGraph)} or ${mayHoldSecret(automations.activeGraph)})`,
      ),
    );
  for (const row of rows) {
    const draftGraph = await move(row.draftGraph, row.name);
    const activeGraph = row.activeGraph ? await move(row.activeGraph, row.name) : null;
    if (draftGraph !== row.draftGraph || activeGraph !== row.activeGraph)
      await tx.update(automations).set({ draftGraph, activeGraph }).where(eq(automations.id, row.id));
  }

  const versions = await tx
    .select()
    .from(automationVersions)
    .where(and(eq(automationVersions.tenantId, tenantId), mayHoldSecret(automationVersions.graph)));
  for (const version of versions) {
    const graph = await move(version.graph, version.name);
    if (graph !== version.graph)
      await tx
        .update(automationVersions)
        .set({ graph })
        .where(
          and(
            eq(automationVersions.automationId, version.automationId),
            eq(automationVersions.version, version.version),
          ),
        );
  }

  // A published webhook's secret was also copied to its URL's row: point it at the same credential.
  const hooks = await tx
    .select()
    .from(automationHookTokens)
    .where(and(eq(automationHookTokens.tenantId, tenantId), isNotNull(automationHookTokens.secret)));
  for (const hook of hooks) {
    const id = await credentialFor(
      tx,
      owner,
      reuse,
      { kind: "webhook_secret", value: hook.secret! },
      `Webhook secret (${hook.token.slice(0, 6)}…)`,
    );
    await tx
      .update(automationHookTokens)
      .set({ secretCredentialId: id, secret: null })
      .where(eq(automationHookTokens.token, hook.token));
  }

  // Recorded requests kept the headers they were sent with: the delivery keeps a reference instead.
  const deliveries = await tx
    .select({ id: actionDeliveries.id, request: actionDeliveries.request })
    .from(actionDeliveries)
    .where(
      and(
        eq(actionDeliveries.tenantId, tenantId),
        eq(actionDeliveries.nodeType, "auto.action.http_request"),
        sql`${actionDeliveries.request}->'headers' <> '{}'::jsonb`,
      ),
    );
  for (const delivery of deliveries) {
    const headers = (delivery.request.headers ?? {}) as Record<string, unknown>;
    const secret = Object.entries(headers).filter(
      (entry): entry is [string, string] => typeof entry[1] === "string" && isSecretHeader(entry[0]),
    );
    if (secret.length === 0) continue;
    const id = await credentialFor(
      tx,
      owner,
      reuse,
      {
        kind: "http_header",
        value: headerCredentialValue(secret),
        host: typeof delivery.request.url === "string" ? hostOfUrl(delivery.request.url) : null,
      },
      `Sent header ${secret.map(([n]) => n).join(", ")} (${delivery.id.slice(0, 8)})`,
    );
    const kept = Object.fromEntries(Object.entries(headers).filter(([name]) => !isSecretHeader(name)));
    await tx
      .update(actionDeliveries)
      .set({
        request: { ...delivery.request, headers: kept, credentialId: delivery.request.credentialId ?? id },
      })
      .where(eq(actionDeliveries.id, delivery.id));
  }

  if (counter.moved > 0)
    await tx.insert(auditEvents).values({
      tenantId,
      actor: "Tillflow",
      action: "credentials.moved",
      subjectType: "credential",
      subjectId: tenantId,
      detail: { count: counter.moved },
    });
  return counter.moved;
}

const MOVE = "secrets-to-credentials";

/**
 * Moves every shop's plain secrets into credentials, once: a database where the move finished
 * is not scanned again. Returns how many credentials it made.
 */
export async function moveSecretsToCredentials(db: Db): Promise<number> {
  const [done] = await db.select().from(dataMoves).where(eq(dataMoves.name, MOVE));
  if (done) return 0;
  let moved = 0;
  for (const tenantId of await tenantsWithSecrets(db))
    moved += await db.transaction((tx) => moveForTenant(tx, tenantId));
  await db.insert(dataMoves).values({ name: MOVE }).onConflictDoNothing();
  return moved;
}
