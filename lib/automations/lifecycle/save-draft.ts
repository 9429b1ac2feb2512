import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Caller } from "@/lib/identity/caller";
import { getDb, type Tx } from "@/lib/db/client";
import { automationHookTokens, automations } from "@/lib/db/schema";
import { AppError, parseOrThrow } from "@/lib/errors";
import { type Graph } from "@/lib/automations/graph/schema";
import { WEBHOOK_TRIGGER } from "@/lib/automations/nodes/triggers/trigger-types";
import { IN_FLIGHT_POLICIES } from "./policies";
import { view, loadRow, type AutomationRow, type AutomationView } from "./read";
import { parseGraph, storableGraph, assertMayChange } from "./guards";
import { name } from "./create";

export const draftInput = z.strictObject({
  graph: z.unknown().optional(),
  name: name.optional(),
  description: z.string().max(2000).optional(),
  inFlightPolicy: z.enum(IN_FLIGHT_POLICIES).optional(),
  /** The draft revision the editor started from; a newer one on the server is a 409. */
  baseRevision: z.number().int().min(1).optional(),
});

export async function saveDraft(caller: Caller, id: string, body: unknown): Promise<AutomationView> {
  const input = parseOrThrow(draftInput, body, "The draft is invalid");
  const graph = input.graph === undefined ? undefined : parseGraph(input.graph);
  return getDb().transaction(async (tx) => {
    const row = await loadRow(tx, caller.tenant.id, id, true);
    assertMayChange(caller, row);
    if (row.status === "archived")
      throw new AppError(409, "conflict", "This automation is archived; restore it before editing.");
    if (input.baseRevision !== undefined && input.baseRevision !== row.draftRevision) {
      throw new AppError(
        409,
        "conflict",
        "This draft was changed elsewhere (another tab or person) since you opened it. Reload to see the latest version.",
      );
    }
    const stored = graph ? await storableGraph(tx, caller, graph, input.name ?? row.name) : undefined;
    const [updated] = await tx
      .update(automations)
      .set({
        ...(stored ? { draftGraph: stored } : {}),
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.inFlightPolicy ? { inFlightPolicy: input.inFlightPolicy } : {}),
        draftRevision: sql`${automations.draftRevision} + 1`,
        updatedAt: new Date(),
      })
      .where(eq(automations.id, row.id))
      .returning();
    return view(updated!);
  });
}

export async function replaceHookTokens(tx: Tx, row: AutomationRow, graph: Graph): Promise<void> {
  await tx.delete(automationHookTokens).where(eq(automationHookTokens.automationId, row.id));
  const hooks = graph.nodes.filter((n) => n.type === WEBHOOK_TRIGGER);
  if (hooks.length === 0) return;
  const tokens = hooks.map((n) => ({
    token: String(n.params.token),
    tenantId: row.tenantId,
    automationId: row.id,
    nodeId: n.id,
    secretCredentialId: typeof n.params.secretCredentialId === "string" ? n.params.secretCredentialId : null,
  }));
  const inserted = await tx.insert(automationHookTokens).values(tokens).onConflictDoNothing().returning();
  if (inserted.length !== tokens.length) {
    throw new AppError(
      409,
      "conflict",
      "A webhook trigger's token is already used by another automation; generate a new one.",
    );
  }
}
