import { z } from "zod";
import { actorLabel, type Caller } from "@/lib/identity/caller";
import { getDb } from "@/lib/db/client";
import { automations } from "@/lib/db/schema";
import { parseOrThrow } from "@/lib/errors";
import { EMPTY_GRAPH } from "@/lib/automations/graph/schema";
import { IN_FLIGHT_POLICIES } from "./policies";
import { view, type AutomationView } from "./read";
import { parseGraph, storableGraph } from "./guards";

export const name = z
  .string()
  .trim()
  .min(1, "give the automation a name")
  .max(120, "use at most 120 characters");

export const createInput = z.strictObject({
  name,
  description: z.string().max(2000).default(""),
  graph: z.unknown().optional(),
  inFlightPolicy: z.enum(IN_FLIGHT_POLICIES).default("cancel"),
});

export async function createAutomation(caller: Caller, body: unknown): Promise<AutomationView> {
  const input = parseOrThrow(createInput, body, "The automation is invalid");
  const graph = input.graph === undefined ? EMPTY_GRAPH : parseGraph(input.graph);
  return getDb().transaction(async (tx) => {
    const [row] = await tx
      .insert(automations)
      .values({
        tenantId: caller.tenant.id,
        name: input.name,
        description: input.description,
        draftGraph: await storableGraph(tx, caller, graph, input.name),
        inFlightPolicy: input.inFlightPolicy,
        createdBy: actorLabel(caller.actor),
      })
      .returning();
    return view(row!);
  });
}
