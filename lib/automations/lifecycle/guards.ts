import type { Caller } from "@/lib/identity/caller";
import { type Tx } from "@/lib/db/client";
import { AppError, parseOrThrow } from "@/lib/errors";
import { graphSchema, MAX_GRAPH_BYTES, type Graph } from "@/lib/automations/graph/schema";
import { externaliseSecrets, storeAs } from "@/lib/credentials/externalise";
import { assertReferencesExist } from "@/lib/credentials/references";
import type { AutomationRow } from "./read";

/** Refuses a graph larger than any flow a merchant draws (a 422 with its size). */
export function assertGraphSize(input: unknown): void {
  const size = JSON.stringify(input ?? null).length;
  if (size > MAX_GRAPH_BYTES) {
    throw new AppError(
      422,
      "invalid",
      `The flow is ${Math.round(size / 1000)} KB; a flow can be at most ${MAX_GRAPH_BYTES / 1000} KB.`,
    );
  }
}

/** Shape-checks a graph (not its meaning: that is `validate`) and refuses oversized ones. */
export function parseGraph(input: unknown): Graph {
  assertGraphSize(input);
  return parseOrThrow(graphSchema, input, "The flow is malformed");
}

/**
 * A graph as it is stored: its plain secrets moved into credentials, and every credential it
 * names one of this shop's (lib/credentials).
 */
export async function storableGraph(
  tx: Tx,
  caller: Caller,
  graph: Graph,
  automationName: string,
): Promise<Graph> {
  const owner = { tenantId: caller.tenant.id, store: storeAs(tx, caller) };
  const stored = await externaliseSecrets(tx, owner, graph, automationName);
  await assertReferencesExist(tx, caller.tenant.id, stored);
  return stored;
}

/**
 * Built-in automations belong to the platform: only admins change them (edit, publish, pause,
 * revert, reset). Their slug is never written after they are seeded.
 */
export function assertMayChange(caller: Caller, row: AutomationRow): void {
  if (row.builtinSlug && caller.role !== "admin") {
    throw new AppError(403, "forbidden", "Only an admin can change a built-in automation.");
  }
}
