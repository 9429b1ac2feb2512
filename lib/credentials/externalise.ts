import { and, eq, like } from "drizzle-orm";
import type { Caller } from "@/lib/identity/caller";
import type { DbOrTx } from "@/lib/db/client";
import { credentials } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import type { Graph } from "@/lib/automations/graph/schema";
import { typedHost } from "./hosts";
import { headerCredentialValue, plainSecretHeaders, type CredentialKind } from "./kinds";
import { insertCredential } from "./store";

/**
 * Secrets typed into a graph become credentials when it is saved (SPEC §2 "Credentials"): a
 * webhook trigger's plain `secret`, and an HTTP request's headers whose names say they carry one
 * (`Authorization`, `X-Api-Key`, …) with a value that has no token. The graph keeps a reference
 * (`secretCredentialId`, `auth: {credentialId}`), so the contract that accepts them stays, and
 * the value is never stored in a draft, a version or an export.
 */

export interface PlainSecret {
  nodeId: string;
  kind: Extract<CredentialKind, "webhook_secret" | "http_header">;
  /** For an `http_header` credential, `Name: value` lines; for a webhook, the secret. */
  value: string;
  /** Header names moved out of the step's headers (empty for a webhook secret). */
  headers: string[];
  /** Set when the step already sends a credential: another cannot be added to it. */
  hasAuth: boolean;
  /**
   * The host the step's URL names, which the new credential may be sent to (null: the host is a
   * token, or there is none, and the credential goes nowhere until an admin names its hosts).
   */
  host: string | null;
}

/** The plain secrets in a graph, in node order (pure). */
export function findPlainSecrets(graph: Graph): PlainSecret[] {
  const found: PlainSecret[] = [];
  for (const node of graph.nodes) {
    const params = node.params;
    if (node.type === "auto.trigger.webhook" && typeof params.secret === "string" && params.secret !== "") {
      found.push({
        nodeId: node.id,
        kind: "webhook_secret",
        value: params.secret,
        headers: [],
        hasAuth: false,
        host: null,
      });
    }
    if (node.type === "auto.action.http_request") {
      const secret = plainSecretHeaders(params.headers);
      if (secret.length > 0)
        found.push({
          nodeId: node.id,
          kind: "http_header",
          value: headerCredentialValue(secret),
          headers: secret.map(([name]) => name),
          hasAuth: params.auth !== undefined,
          host: typedHost(params.url),
        });
    }
  }
  return found;
}

/**
 * The saved params of the steps whose plain secrets a save moved into credentials, by node id
 * (pure). The editor adopts them, so its next autosave sends the reference, not the secret
 * again (which would store another credential on every save).
 */
export function movedSecretParams(submitted: Graph, saved: Graph): Record<string, Record<string, unknown>> {
  const moved: Record<string, Record<string, unknown>> = {};
  for (const secret of findPlainSecrets(submitted)) {
    const node = saved.nodes.find((n) => n.id === secret.nodeId);
    if (node) moved[node.id] = node.params;
  }
  return moved;
}

/** The graph with each found secret replaced by its credential's id (pure). */
export function withReferences(graph: Graph, moved: Map<PlainSecret, string>): Graph {
  const byNode = new Map([...moved].map(([secret, id]) => [secret.nodeId, { secret, id }]));
  return {
    ...graph,
    nodes: graph.nodes.map((node) => {
      const entry = byNode.get(node.id);
      if (!entry) return node;
      const params = { ...node.params };
      if (entry.secret.kind === "webhook_secret") {
        delete params.secret;
        params.secretCredentialId = entry.id;
      } else {
        const headers = { ...(params.headers as Record<string, unknown>) };
        for (const name of entry.secret.headers) delete headers[name];
        params.headers = headers;
        params.auth = { credentialId: entry.id };
      }
      return { ...node, params };
    }),
  };
}

/** `base`, or `base 2`, `base 3`… — the first name the shop does not use yet. */
async function freeName(db: DbOrTx, tenantId: string, base: string): Promise<string> {
  const trimmed = base.slice(0, 90);
  const taken = new Set(
    (
      await db
        .select({ name: credentials.name })
        .from(credentials)
        .where(
          and(
            eq(credentials.tenantId, tenantId),
            like(credentials.name, `${trimmed.replace(/[%_\\]/g, "\\$&")}%`),
          ),
        )
    ).map((r) => r.name),
  );
  if (!taken.has(trimmed)) return trimmed;
  for (let n = 2; ; n++) if (!taken.has(`${trimmed} ${n}`)) return `${trimmed} ${n}`;
}

/** Stores one secret as a credential and returns its id. */
export type StoreSecret = (input: {
  name: string;
  kind: CredentialKind;
  value: string;
  allowedHosts: string[];
}) => Promise<string>;

/** Stores secrets as the caller (audited as theirs), in the caller's transaction. */
export function storeAs(tx: DbOrTx, caller: Caller): StoreSecret {
  return async (input) => (await insertCredential(tx, caller, input)).id;
}

export type SecretOwner = { tenantId: string; store: StoreSecret };

/**
 * The credential of a secret: the one already made for the same value and host in this pass
 * (`reuse`, keyed by kind, value and host), else a new one, named `baseName` or the first free name
 * after it, that may be sent to that host only.
 */
export async function credentialFor(
  tx: DbOrTx,
  owner: SecretOwner,
  reuse: Map<string, string>,
  secret: { kind: CredentialKind; value: string; host?: string | null },
  baseName: string,
): Promise<string> {
  const key = `${secret.kind}\n${secret.value}\n${secret.host ?? ""}`;
  let id = reuse.get(key);
  if (!id) {
    const name = await freeName(tx, owner.tenantId, baseName);
    const allowedHosts = secret.host ? [secret.host] : [];
    id = await owner.store({ name, kind: secret.kind, value: secret.value, allowedHosts });
    reuse.set(key, id);
  }
  return id;
}

/**
 * Moves a graph's plain secrets into the shop's credentials inside `tx` and returns the graph
 * that refers to them. `reuse` (value → id) lets a caller moving many snapshots of one graph
 * make one credential per distinct secret.
 */
export async function externaliseSecrets(
  tx: DbOrTx,
  owner: SecretOwner,
  graph: Graph,
  automationName: string,
  reuse = new Map<string, string>(),
): Promise<Graph> {
  const found = findPlainSecrets(graph);
  if (found.length === 0) return graph;
  const moved = new Map<PlainSecret, string>();
  for (const secret of found) {
    if (secret.hasAuth)
      throw new AppError(
        400,
        "bad_request",
        `The step '${secret.nodeId}' already sends a credential, so its ${secret.headers.join(", ")} header cannot be added too: put it in that credential (Settings → Credentials), or remove it.`,
      );
    const what = secret.kind === "webhook_secret" ? "webhook secret" : secret.headers.join(", ");
    moved.set(secret, await credentialFor(tx, owner, reuse, secret, `${automationName}: ${what}`));
  }
  return withReferences(graph, moved);
}
