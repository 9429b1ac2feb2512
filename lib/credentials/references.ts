import type { DbOrTx } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { Graph } from "@/lib/automations/graph/schema";
import { HTTP_AUTH_KINDS, KIND_LABELS, type CredentialKind } from "./kinds";
import { credentialsByIds } from "./store";
import { registry } from "@/lib/automations/nodes/registry";

/** Where a graph names a credential, and the kinds that step can use. */
export interface CredentialReference {
  nodeId: string;
  credentialId: string;
  kinds: readonly CredentialKind[];
}

/** Every credential a graph refers to (pure): what each step says it names (`credentials`). */
export function credentialReferences(graph: Graph): CredentialReference[] {
  return graph.nodes.flatMap((node) =>
    (registry.get(node.type)?.credentials?.(node.params) ?? []).map((use) => ({ nodeId: node.id, ...use })),
  );
}

/**
 * Refuses a graph that names a credential this shop does not have (another shop's id is not
 * there either) or one of a kind the step cannot use.
 */
export async function assertReferencesExist(db: DbOrTx, tenantId: string, graph: Graph): Promise<void> {
  const refs = credentialReferences(graph);
  if (refs.length === 0) return;
  const found = await credentialsByIds(
    db,
    tenantId,
    refs.map((r) => r.credentialId),
  );
  for (const ref of refs) {
    const credential = found.get(ref.credentialId);
    if (!credential)
      throw new AppError(
        400,
        "bad_request",
        `The step '${ref.nodeId}' uses a credential this shop does not have (deleted, or never made). Choose one in the step's settings.`,
      );
    if (!ref.kinds.includes(credential.kind))
      throw new AppError(
        400,
        "bad_request",
        `The step '${ref.nodeId}' cannot use '${credential.name}' (${KIND_LABELS[credential.kind].label}); it needs ${ref.kinds.map((k) => KIND_LABELS[k].label).join(", ")}.`,
      );
  }
}

/**
 * The names and allowed hosts of the credentials a graph's HTTP steps name, by id: `validate`'s
 * `credentialHosts`, so publishing refuses a step that would send one elsewhere.
 */
export async function credentialHostsOf(
  db: DbOrTx,
  tenantId: string,
  graph: Graph,
): Promise<Record<string, { name: string; allowedHosts: string[] }>> {
  const ids = credentialReferences(graph)
    .filter((ref) => ref.kinds === HTTP_AUTH_KINDS)
    .map((ref) => ref.credentialId);
  if (ids.length === 0) return {};
  const found = await credentialsByIds(db, tenantId, ids);
  return Object.fromEntries(
    [...found.values()].map((c) => [c.id, { name: c.name, allowedHosts: c.allowedHosts }]),
  );
}
