import "server-only";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { recordAudit } from "@/lib/audit";
import { actorLabel, type Caller } from "@/lib/identity/caller";
import { getDb, type DbOrTx } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/unique-violation";
import { automations, credentials, storeConnections } from "@/lib/db/schema";
import { AppError, isUuid, notFound, parseOrThrow } from "@/lib/errors";
import { allowsHost } from "@/lib/net/allow-list";
import { allowedHostsInput, hostOfUrl, needsHosts } from "./hosts";
import { refuseWhileAlertsUse } from "./in-alerts";
import {
  CREDENTIAL_KINDS,
  KIND_LABELS,
  shopDomain,
  STORE_WRITE_KINDS,
  valueProblem,
  type CredentialKind,
  type ValueRules,
} from "./kinds";
import { lastFour, open, seal } from "./secret-box";

/**
 * A shop's credentials (SPEC §2 "Credentials"): written by admins (the routes and actions say
 * so; a secret an editor types into their own graph is stored by the save, `externalise.ts`),
 * listed by every role, and read back in plain only by the engine and the inbound webhook route,
 * at the moment they send or check. Nothing here returns a value to a caller. Each credential
 * names the hosts it may be sent to (`allowedHosts`, hosts.ts).
 */

export interface CredentialView {
  id: string;
  name: string;
  kind: CredentialKind;
  last4: string;
  createdBy: string;
  createdAt: string;
  rotatedAt: string | null;
  /** The hosts it may be sent to (exact or `*.example.com`); empty: nowhere yet. */
  allowedHosts: string[];
}

type CredentialRow = typeof credentials.$inferSelect;

function view(row: CredentialRow): CredentialView {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    last4: row.last4,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    rotatedAt: row.rotatedAt?.toISOString() ?? null,
    allowedHosts: row.allowedHosts,
  };
}

const name = z.string().trim().min(1, "give the credential a name, such as the service it is for").max(100);

/** A Slack webhook may be plain http only where the outbound guard would call it (HTTP_ACTION_ALLOW). */
const SERVER_RULES: ValueRules = { allowsHttp: (url) => allowsHost(url.hostname) };

const NEEDS_HOSTS =
  "Name at least one host it may be sent to (api.example.com, or *.example.com for its subdomains); an HTTP step sends it nowhere else.";

export const createCredentialInput = z
  .strictObject({
    name,
    kind: z.enum(CREDENTIAL_KINDS, `choose one of ${CREDENTIAL_KINDS.join(", ")}`),
    value: z.string(),
    /**
     * The hosts it may be sent to: required (at least one) for the kinds an HTTP step sends;
     * a Slack webhook's is its URL's host, whatever is given; the webhook-secret kinds are never
     * sent and keep none.
     */
    allowedHosts: allowedHostsInput.optional(),
  })
  .superRefine((input, ctx) => {
    const problem = valueProblem(input.kind, input.value, SERVER_RULES);
    if (problem) ctx.addIssue({ code: "custom", path: ["value"], message: problem });
    if (needsHosts(input.kind) && (input.allowedHosts ?? []).length === 0)
      ctx.addIssue({ code: "custom", path: ["allowedHosts"], message: NEEDS_HOSTS });
    const storeHostProblem = storeHostsProblem(input.kind, input.allowedHosts ?? []);
    if (storeHostProblem) ctx.addIssue({ code: "custom", path: ["allowedHosts"], message: storeHostProblem });
  });

/**
 * A store credential goes to its store alone (issue 52): a Shopify Admin token to one shop's
 * `<shop>.myshopify.com`, a WooCommerce key to one store's host. Why the hosts given cannot be so, or null.
 */
export function storeHostsProblem(kind: CredentialKind, hosts: readonly string[]): string | null {
  if (!(STORE_WRITE_KINDS as readonly string[]).includes(kind)) return null;
  if (hosts.length !== 1 || hosts[0]!.startsWith("*."))
    return "Name the one store it writes to: its host alone (my-shop.myshopify.com, or shop.example.com).";
  if (kind === "shopify_admin" && shopDomain(hosts[0]!) !== hosts[0])
    return "A Shopify Admin API token may only go to its shop's own domain, as my-shop.myshopify.com.";
  return null;
}

/** `confirm: true`: rotate it although an alert rule sends through it (else a 409 naming the rule). */
export const rotateCredentialInput = z.strictObject({
  value: z.string(),
  name: name.optional(),
  confirm: z.boolean().optional(),
});

/** `DELETE …?confirm=true`: delete it although an alert rule sends through it. */
export const deleteCredentialQuery = z.strictObject({
  confirm: z.enum(["true", "false"], "confirm is true or false").optional(),
});

/** A new list of hosts (and optionally a new name); admins only, like every change. */
export const updateCredentialInput = z.strictObject({
  allowedHosts: allowedHostsInput,
  name: name.optional(),
});

/** The hosts a credential of `kind` keeps: a Slack webhook's own URL's host, none for kinds never sent. */
export function storedHosts(kind: CredentialKind, value: string, given: string[] | undefined): string[] {
  if (kind === "slack_webhook") {
    const host = hostOfUrl(value);
    return host ? [host] : [];
  }
  if ((STORE_WRITE_KINDS as readonly string[]).includes(kind)) return (given ?? []).slice(0, 1);
  return needsHosts(kind) ? (given ?? []) : [];
}

export async function listCredentials(tenantId: string, db: DbOrTx = getDb()): Promise<CredentialView[]> {
  const rows = await db
    .select()
    .from(credentials)
    .where(eq(credentials.tenantId, tenantId))
    .orderBy(asc(credentials.name));
  return rows.map(view);
}

async function loadCredential(db: DbOrTx, tenantId: string, id: string): Promise<CredentialRow> {
  if (!isUuid(id)) throw notFound("That credential");
  const [row] = await db
    .select()
    .from(credentials)
    .where(and(eq(credentials.tenantId, tenantId), eq(credentials.id, id)));
  if (!row) throw notFound("That credential");
  return row;
}

export async function getCredential(tenantId: string, id: string): Promise<CredentialView> {
  return view(await loadCredential(getDb(), tenantId, id));
}

const takenError = (taken: string) =>
  new AppError(
    409,
    "conflict",
    `A credential named '${taken}' already exists in this shop; choose another name.`,
  );

/** Stores a new credential in `db` (the caller's transaction when a graph is being saved). */
export async function insertCredential(
  db: DbOrTx,
  caller: Caller,
  input: { name: string; kind: CredentialKind; value: string; allowedHosts?: string[] },
): Promise<CredentialView> {
  let row: CredentialRow | undefined;
  try {
    [row] = await db
      .insert(credentials)
      .values({
        tenantId: caller.tenant.id,
        name: input.name,
        kind: input.kind,
        value: seal(input.value, caller.tenant.id),
        last4: lastFour(input.value),
        createdBy: actorLabel(caller.actor),
        allowedHosts: storedHosts(input.kind, input.value, input.allowedHosts),
      })
      .returning();
  } catch (error) {
    if (isUniqueViolation(error)) throw takenError(input.name);
    throw error;
  }
  await recordAudit(db, caller, {
    action: "credential.created",
    subjectType: "credential",
    subjectId: row!.id,
    detail: { name: input.name, kind: input.kind, allowedHosts: row!.allowedHosts },
  });
  return view(row!);
}

export async function createCredential(caller: Caller, body: unknown): Promise<CredentialView> {
  const input = parseOrThrow(createCredentialInput, body, "The credential is invalid");
  return getDb().transaction((tx) => insertCredential(tx, caller, input));
}

/**
 * Replaces a credential's value (and optionally its name); every flow using it sends the new one.
 * Refused (409, naming the rule) while an alert rule sends through it, unless `confirm: true`.
 */
export async function rotateCredential(caller: Caller, id: string, body: unknown): Promise<CredentialView> {
  const input = parseOrThrow(rotateCredentialInput, body, "The credential is invalid");
  return getDb().transaction(async (tx) => {
    const row = await loadCredential(tx, caller.tenant.id, id);
    if (!input.confirm) await refuseWhileAlertsUse(tx, caller.tenant.id, row, "rotate");
    const problem = valueProblem(row.kind, input.value, SERVER_RULES);
    if (problem)
      throw new AppError(400, "bad_request", `The credential is invalid: value: ${problem}`, [
        { path: "value", message: problem },
      ]);
    let updated: CredentialRow | undefined;
    try {
      [updated] = await tx
        .update(credentials)
        .set({
          value: seal(input.value, caller.tenant.id),
          last4: lastFour(input.value),
          rotatedAt: new Date(),
          // A Slack webhook goes where its URL says: its host follows the new URL.
          ...(row.kind === "slack_webhook"
            ? { allowedHosts: storedHosts(row.kind, input.value, undefined) }
            : {}),
          ...(input.name ? { name: input.name } : {}),
        })
        .where(eq(credentials.id, row.id))
        .returning();
    } catch (error) {
      if (isUniqueViolation(error) && input.name) throw takenError(input.name);
      throw error;
    }
    await recordAudit(tx, caller, {
      action: "credential.rotated",
      subjectType: "credential",
      subjectId: row.id,
      detail: { name: updated!.name, kind: row.kind, ...(input.confirm ? { confirmed: true } : {}) },
    });
    return view(updated!);
  });
}

/** Sets the hosts a credential may be sent to (and optionally its name); audited with both lists. */
export async function updateCredential(caller: Caller, id: string, body: unknown): Promise<CredentialView> {
  const input = parseOrThrow(updateCredentialInput, body, "The credential is invalid");
  return getDb().transaction(async (tx) => {
    const row = await loadCredential(tx, caller.tenant.id, id);
    if (row.kind === "slack_webhook")
      throw new AppError(
        400,
        "bad_request",
        `'${row.name}' is a Slack webhook: it is only ever sent to its own URL's host (${row.allowedHosts.join(", ") || "none"}). Rotate it to point it elsewhere.`,
      );
    if ((STORE_WRITE_KINDS as readonly string[]).includes(row.kind))
      throw new AppError(
        400,
        "bad_request",
        `'${row.name}' writes to one store only (${row.allowedHosts.join(", ") || "none"}); its host cannot change. Connect the other store with its own token.`,
      );
    if (!needsHosts(row.kind))
      throw new AppError(
        400,
        "bad_request",
        `'${row.name}' is a ${KIND_LABELS[row.kind].label.toLowerCase()}: Tillflow checks with it and never sends it, so it has no hosts.`,
      );
    if (input.allowedHosts.length === 0)
      throw new AppError(400, "bad_request", `The credential is invalid: allowedHosts: ${NEEDS_HOSTS}`, [
        { path: "allowedHosts", message: NEEDS_HOSTS },
      ]);
    let updated: CredentialRow | undefined;
    try {
      [updated] = await tx
        .update(credentials)
        .set({ allowedHosts: input.allowedHosts, ...(input.name ? { name: input.name } : {}) })
        .where(eq(credentials.id, row.id))
        .returning();
    } catch (error) {
      if (isUniqueViolation(error) && input.name) throw takenError(input.name);
      throw error;
    }
    await recordAudit(tx, caller, {
      action: "credential.hosts_changed",
      subjectType: "credential",
      subjectId: row.id,
      detail: { name: updated!.name, from: row.allowedHosts, to: updated!.allowedHosts },
    });
    return view(updated!);
  });
}

/** Automations whose draft or published graph refers to the credential (ids are unique, so a text match is exact). */
export async function automationsUsing(
  db: DbOrTx,
  tenantId: string,
  credentialId: string,
): Promise<{ id: string; name: string; status: string; published: boolean }[]> {
  const pattern = `%"${credentialId}"%`;
  return db
    .select({
      id: automations.id,
      name: automations.name,
      status: automations.status,
      published: sql<boolean>`coalesce(${automations.activeGraph}::text like ${pattern}, false)`,
    })
    .from(automations)
    .where(
      and(
        eq(automations.tenantId, tenantId),
        sql`(${automations.activeGraph}::text like ${pattern} or ${automations.draftGraph}::text like ${pattern})`,
      ),
    )
    .orderBy(asc(automations.name));
}

/**
 * Deletes a credential; refused while an active automation's published version uses it, or (409,
 * naming the rule, unless `confirm`) while an alert rule sends through it.
 */
export async function deleteCredential(
  caller: Caller,
  id: string,
  options: { confirm?: boolean } = {},
): Promise<{ id: string; deleted: true }> {
  return getDb().transaction(async (tx) => {
    const row = await loadCredential(tx, caller.tenant.id, id);
    const [connection] = await tx
      .select({ name: storeConnections.name })
      .from(storeConnections)
      .where(and(eq(storeConnections.tenantId, caller.tenant.id), eq(storeConnections.credentialId, row.id)));
    if (connection)
      throw new AppError(
        409,
        "conflict",
        `'${row.name}' is the secret of the store connection '${connection.name}'. Disconnect the store in Settings → Connections to delete it.`,
      );
    const active = (await automationsUsing(tx, caller.tenant.id, row.id)).filter(
      (a) => a.status === "active" && a.published,
    );
    if (active.length > 0) {
      const names = active.map((a) => `'${a.name}'`).join(", ");
      throw new AppError(
        409,
        "conflict",
        `'${row.name}' is used by ${active.length === 1 ? "the active automation" : "active automations"} ${names}. Point ${active.length === 1 ? "it" : "them"} at another credential, or pause ${active.length === 1 ? "it" : "them"}, first.`,
      );
    }
    if (!options.confirm) await refuseWhileAlertsUse(tx, caller.tenant.id, row, "delete");
    await tx.delete(credentials).where(eq(credentials.id, row.id));
    await recordAudit(tx, caller, {
      action: "credential.deleted",
      subjectType: "credential",
      subjectId: row.id,
      detail: { name: row.name, kind: row.kind, ...(options.confirm ? { confirmed: true } : {}) },
    });
    return { id: row.id, deleted: true as const };
  });
}

/** The credentials with these ids in the shop, without values (to check a graph's references). */
export async function credentialsByIds(
  db: DbOrTx,
  tenantId: string,
  ids: string[],
): Promise<Map<string, CredentialView>> {
  const valid = [...new Set(ids)].filter(isUuid);
  if (valid.length === 0) return new Map();
  const rows = await db
    .select()
    .from(credentials)
    .where(and(eq(credentials.tenantId, tenantId), inArray(credentials.id, valid)));
  return new Map(rows.map((row) => [row.id, view(row)]));
}

/**
 * The plain value, for the engine at send time and the webhook route at check time only; null
 * when the shop has no such credential (deleted since the graph was published).
 */
export async function credentialSecret(
  tenantId: string,
  id: string,
  db: DbOrTx = getDb(),
): Promise<{ kind: CredentialKind; value: string; name: string; allowedHosts: string[] } | null> {
  if (!isUuid(id)) return null;
  const [row] = await db
    .select({
      kind: credentials.kind,
      value: credentials.value,
      name: credentials.name,
      allowedHosts: credentials.allowedHosts,
    })
    .from(credentials)
    .where(and(eq(credentials.tenantId, tenantId), eq(credentials.id, id)));
  return row
    ? { kind: row.kind, name: row.name, allowedHosts: row.allowedHosts, value: open(row.value, tenantId) }
    : null;
}

/** A credential's name and hosts, without its value (a dry run's check before anything is sent). */
export async function credentialHosts(
  tenantId: string,
  id: string,
  db: DbOrTx = getDb(),
): Promise<{ name: string; allowedHosts: string[] } | null> {
  if (!isUuid(id)) return null;
  const [row] = await db
    .select({ name: credentials.name, allowedHosts: credentials.allowedHosts })
    .from(credentials)
    .where(and(eq(credentials.tenantId, tenantId), eq(credentials.id, id)));
  return row ?? null;
}
