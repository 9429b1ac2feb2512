import type { Priority } from "@/lib/messaging/settings";
import { and, eq } from "drizzle-orm";
import { getDb, type Tx } from "@/lib/db/client";
import { automations, type AutomationCaps } from "@/lib/db/schema";
import { AppError, isUuid, notFound } from "@/lib/errors";
import { type Graph } from "@/lib/automations/graph/schema";
import { validate, type ReadyIssue } from "@/lib/automations/review/validate";
import type { InFlightPolicy } from "./policies";
import { serverFacts } from "./server-facts";

export type AutomationRow = typeof automations.$inferSelect;

export interface AutomationView {
  id: string;
  name: string;
  description: string;
  status: AutomationRow["status"];
  version: number;
  inFlightPolicy: InFlightPolicy;
  draftGraph: Graph;
  draftRevision: number;
  activeGraph: Graph | null;
  readyIssues: ReadyIssue[];
  /** True when the draft differs from the published version (or was never published). */
  hasUnpublishedChanges: boolean;
  activatedAt: string | null;
  /** The slug of a built-in automation (seeded by the platform; can be reset, never archived), else null. */
  builtinSlug: string | null;
  /** Its caps (`PUT …/caps`): runs past one are held. Empty when there are none. */
  caps: AutomationCaps;
  /** Which deferred marketing message goes first, and when one expires (lib/messaging). */
  messaging: { priority: Priority; expireAfterHours: number };
  /** The share of customers held out (`PUT …/holdout`, 0–50): their runs take no actions. 0: off. */
  holdoutPercent: number;
  createdAt: string;
  updatedAt: string;
}

/** Graph JSON compared by content, so saving the same graph again is not a change. */
export function sameGraph(a: Graph | null, b: Graph | null): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function view(row: AutomationRow): AutomationView {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    status: row.status,
    version: row.version,
    inFlightPolicy: row.inFlightPolicy,
    draftGraph: row.draftGraph,
    draftRevision: row.draftRevision,
    activeGraph: row.activeGraph,
    readyIssues: validate(row.draftGraph, undefined, serverFacts()),
    hasUnpublishedChanges: row.version === 0 || !sameGraph(row.draftGraph, row.activeGraph),
    activatedAt: row.activatedAt?.toISOString() ?? null,
    builtinSlug: row.builtinSlug,
    caps: row.caps ?? {},
    messaging: { priority: row.messagePriority, expireAfterHours: row.expireAfterHours },
    holdoutPercent: row.holdoutPercent,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function loadRow(
  tx: Tx | ReturnType<typeof getDb>,
  tenantId: string,
  id: string,
  lock = false,
): Promise<AutomationRow> {
  if (!isUuid(id)) throw notFound("That automation");
  const query = tx
    .select()
    .from(automations)
    .where(and(eq(automations.tenantId, tenantId), eq(automations.id, id)));
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw notFound("That automation");
  return row;
}

export async function getAutomation(tenantId: string, id: string): Promise<AutomationView> {
  return view(await loadRow(getDb(), tenantId, id));
}

/**
 * The graph a run started now would take: the active version's. An automation that is not on is
 * refused (409) with what to do: "'Sync' is paused; turn it on first to <what>."
 */
export function liveGraph(row: AutomationRow, what: string): Graph {
  if (row.status !== "active" || !row.activeGraph) {
    throw new AppError(
      409,
      "conflict",
      `'${row.name}' is ${row.status === "draft" ? "not published yet" : row.status}; turn it on first to ${what}.`,
    );
  }
  return row.activeGraph;
}

/** The audit log's subject for a change to an automation. */
export function automationSubject(row: AutomationRow): { subjectType: "automation"; subjectId: string } {
  return { subjectType: "automation", subjectId: row.id };
}
