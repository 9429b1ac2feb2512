import { and, desc, eq, ilike, sql } from "drizzle-orm";
import { z } from "zod";
import { recordAudit } from "@/lib/audit";
import { actorLabel, type Caller } from "@/lib/auth/caller";
import { getDb, type Tx } from "@/lib/db/client";
import { automationHookTokens, automations, automationVersions } from "@/lib/db/schema";
import { AppError, isUuid, notFound, parseOrThrow } from "@/lib/errors";
import { EMPTY_GRAPH, graphSchema, MAX_GRAPH_BYTES, type Graph } from "./graph/schema";
import { validate, type ReadyIssue } from "./graph/validate";
import { registry } from "./nodes/registry";
import { syncSchedules } from "./lifecycle/schedule-sync";
import { waitingByNode } from "./waits/waits";
import { stepLabel, versionGraphs } from "./engine/step-labels";
import { diffGraphs } from "./graph/diff";
import { afterCursor, decodeCursor, encodeCursor } from "@/lib/pagination";
import { externaliseSecrets, storeAs } from "@/lib/credentials/externalise";
import { assertReferencesExist } from "@/lib/credentials/references";
import { IN_FLIGHT_POLICIES, POLICY_SENTENCES, type InFlightPolicy } from "./lifecycle/policies";

export { IN_FLIGHT_POLICIES, POLICY_SENTENCES, type InFlightPolicy };

type AutomationRow = typeof automations.$inferSelect;

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
  createdAt: string;
  updatedAt: string;
}

/** Graph JSON compared by content, so saving the same graph again is not a change. */
function sameGraph(a: Graph | null, b: Graph | null): boolean {
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
    readyIssues: validate(row.draftGraph),
    hasUnpublishedChanges: row.version === 0 || !sameGraph(row.draftGraph, row.activeGraph),
    activatedAt: row.activatedAt?.toISOString() ?? null,
    builtinSlug: row.builtinSlug,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

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
function parseGraph(input: unknown): Graph {
  assertGraphSize(input);
  return parseOrThrow(graphSchema, input, "The flow is malformed");
}

const name = z.string().trim().min(1, "give the automation a name").max(120, "use at most 120 characters");

export const createInput = z.strictObject({
  name,
  description: z.string().max(2000).default(""),
  graph: z.unknown().optional(),
  inFlightPolicy: z.enum(IN_FLIGHT_POLICIES).default("cancel"),
});

export const draftInput = z.strictObject({
  graph: z.unknown().optional(),
  name: name.optional(),
  description: z.string().max(2000).optional(),
  inFlightPolicy: z.enum(IN_FLIGHT_POLICIES).optional(),
  /** The draft revision the editor started from; a newer one on the server is a 409. */
  baseRevision: z.number().int().min(1).optional(),
});

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

/**
 * A graph as it is stored: its plain secrets moved into credentials, and every credential it
 * names one of this shop's (lib/credentials).
 */
async function storableGraph(tx: Tx, caller: Caller, graph: Graph, automationName: string): Promise<Graph> {
  const owner = { tenantId: caller.tenant.id, store: storeAs(tx, caller) };
  const stored = await externaliseSecrets(tx, owner, graph, automationName);
  await assertReferencesExist(tx, caller.tenant.id, stored);
  return stored;
}

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

export async function getAutomation(tenantId: string, id: string): Promise<AutomationView> {
  return view(await loadRow(getDb(), tenantId, id));
}

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

/** What pausing or publishing does to runs parked on a wait, in a sentence the admin reads first. */
export interface Impact {
  waitingRuns: number;
  policy: InFlightPolicy;
  message: string;
}

/**
 * What publishing, pausing or archiving does to the runs waiting now, as the sentence the person
 * reads first. Each wait is named as drawn in the version it waits on ("Wait 2 days"), not as the
 * step of that id is called today. On publish, `target` is what becomes active (the draft, or an
 * old version on revert): runs whose version has those very steps continue, whatever the policy
 * (SPEC §2: a revert rescues them); the others follow `target.policy`.
 */
export async function impactOf(
  row: AutomationRow,
  action: "publish" | "pause" | "archive",
  target: { graph: Graph; policy: InFlightPolicy } = { graph: row.draftGraph, policy: row.inFlightPolicy },
): Promise<Impact> {
  const byNode = await waitingByNode(row.id);
  const waitingRuns = byNode.reduce((n, w) => n + w.count, 0);
  if (waitingRuns === 0) return { waitingRuns, policy: target.policy, message: "No runs are waiting." };
  const graphs = await versionGraphs(
    row.tenantId,
    byNode.map((w) => ({ automationId: row.id, automationVersion: w.automationVersion })),
  );
  const groups = byNode.map((w) => {
    const graph = graphs.get(`${row.id}:${w.automationVersion}`) ?? null;
    return {
      ...w,
      label: stepLabel(graph, w.nodeId, w.nodeType),
      keeps: action === "publish" && graph !== null && diffGraphs(graph, target.graph).isEmpty,
    };
  });
  const keeping = groups.filter((g) => g.keeps);
  const changing = groups.filter((g) => !g.keeps);
  const then =
    action === "pause"
      ? "any that come due while the automation is paused will be cancelled; those due after you activate it again continue."
      : action === "archive"
        ? `${waitingRuns === 1 ? "it" : "they"} will be cancelled when ${waitingRuns === 1 ? "it wakes" : "they wake"}.`
        : POLICY_SENTENCES[target.policy];
  const sentences = [];
  if (changing.length > 0) sentences.push(`${whereWaiting(changing)}; ${then}`);
  if (keeping.length > 0) {
    const one = keeping.reduce((n, g) => n + g.count, 0) === 1;
    sentences.push(
      `${whereWaiting(keeping)}; ${one ? "it continues: it" : "they continue: they"} started on these same steps.`,
    );
  }
  return { waitingRuns, policy: target.policy, message: sentences.join(" ") };
}

/** "1 run is waiting at 'Wait 2 days', 2 runs await approval at 'Approve refund'", counts merged by label. */
function whereWaiting(groups: { label: string; kind: string; count: number }[]): string {
  const merged = new Map<string, { label: string; kind: string; count: number }>();
  for (const g of groups) {
    const key = `${g.kind}:${g.label}`;
    const known = merged.get(key);
    if (known) known.count += g.count;
    else merged.set(key, { ...g });
  }
  return [...merged.values()]
    .map(({ label, kind, count }) => {
      const runs = count === 1 ? "1 run" : `${count} runs`;
      if (kind === "approval") return `${runs} ${count === 1 ? "awaits" : "await"} approval at '${label}'`;
      if (kind === "retry") return `${runs} ${count === 1 ? "is" : "are"} waiting to retry '${label}'`;
      return `${runs} ${count === 1 ? "is" : "are"} waiting at '${label}'`;
    })
    .join(", ");
}

/** The event types a graph's triggers listen to. */
function triggerEvents(graph: Graph): string[] {
  const events = graph.nodes.flatMap((n) => {
    const definition = registry.get(n.type);
    return definition?.category === "trigger" && definition.event ? [definition.event] : [];
  });
  return [...new Set(events)];
}

async function replaceHookTokens(tx: Tx, row: AutomationRow, graph: Graph): Promise<void> {
  await tx.delete(automationHookTokens).where(eq(automationHookTokens.automationId, row.id));
  const hooks = graph.nodes.filter((n) => n.type === "auto.trigger.webhook");
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

/**
 * Built-in automations belong to the platform: only admins change them (edit, publish, pause,
 * revert, reset). Their slug is never written after they are seeded.
 */
function assertMayChange(caller: Caller, row: AutomationRow): void {
  if (row.builtinSlug && caller.role !== "admin") {
    throw new AppError(403, "forbidden", "Only an admin can change a built-in automation.");
  }
}

/** Archiving is refused for built-ins (disable them instead); call this before archiving anything. */
export function assertArchivable(row: { builtinSlug: string | null }): void {
  if (row.builtinSlug) {
    throw new AppError(
      409,
      "conflict",
      "A built-in automation cannot be archived; pause it to turn it off, or reset it to the built-in definition.",
    );
  }
}

/** Makes `graph` the active version N+1 and snapshots it, inside `tx`. */
export async function publishGraph(
  tx: Tx,
  row: AutomationRow,
  caller: Caller,
  snapshot: { graph: Graph; name: string; policy: InFlightPolicy; note: string },
): Promise<AutomationRow> {
  // A credential deleted since the draft was saved (or since an old version) would fail every run.
  await assertReferencesExist(tx, row.tenantId, snapshot.graph);
  const version = row.version + 1;
  await tx.insert(automationVersions).values({
    automationId: row.id,
    version,
    tenantId: row.tenantId,
    name: snapshot.name,
    graph: snapshot.graph,
    inFlightPolicy: snapshot.policy,
    note: snapshot.note,
    author: actorLabel(caller.actor),
  });
  await replaceHookTokens(tx, row, snapshot.graph);
  const [updated] = await tx
    .update(automations)
    .set({
      version,
      name: snapshot.name,
      inFlightPolicy: snapshot.policy,
      activeGraph: snapshot.graph,
      draftGraph: snapshot.graph,
      draftRevision: sql`${automations.draftRevision} + 1`,
      triggerEvents: triggerEvents(snapshot.graph),
      status: "active",
      activatedAt: new Date(),
      updatedAt: new Date(),
    })
    .where(eq(automations.id, row.id))
    .returning();
  // The schedule's next fire time follows the published graph (same transaction).
  await syncSchedules(tx, updated!);
  return updated!;
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

export const publishInput = z.strictObject({ note: z.string().trim().max(500).default("") });

/**
 * Publishes the draft as the next version and turns the automation on. Ready issues block it
 * (422 with the list). Publishing an unchanged draft of an active automation changes nothing.
 */
export async function publishAutomation(
  caller: Caller,
  id: string,
  body: unknown,
): Promise<{ automation: AutomationView; published: boolean; impact: Impact }> {
  const { note } = parseOrThrow(publishInput, body ?? {}, "The publish request is invalid");
  return getDb().transaction(async (tx) => {
    const row = await loadRow(tx, caller.tenant.id, id, true);
    assertMayChange(caller, row);
    if (row.status === "archived")
      throw new AppError(409, "conflict", "This automation is archived; restore it before publishing.");
    const issues = validate(row.draftGraph);
    if (issues.length > 0) {
      const count = issues.length === 1 ? "1 issue" : `${issues.length} issues`;
      throw new AppError(
        422,
        "invalid",
        `Fix ${count} before publishing: ${issues.map((i) => i.message).join(" ")}`,
        issues,
      );
    }
    const impact = await impactOf(row, "publish");
    const [current] = row.version
      ? await tx
          .select()
          .from(automationVersions)
          .where(
            and(eq(automationVersions.automationId, row.id), eq(automationVersions.version, row.version)),
          )
      : [];
    const unchanged =
      current &&
      sameGraph(current.graph, row.draftGraph) &&
      current.name === row.name &&
      current.inFlightPolicy === row.inFlightPolicy;
    if (unchanged && row.status === "active") return { automation: view(row), published: false, impact };
    const updated = unchanged
      ? await reactivate(tx, row.id)
      : await publishGraph(tx, row, caller, {
          graph: row.draftGraph,
          name: row.name,
          policy: row.inFlightPolicy,
          note,
        });
    await recordAudit(tx, caller, {
      action: unchanged ? "automation.activated" : "automation.published",
      ...automationSubject(updated),
      detail: unchanged
        ? { name: updated.name, version: updated.version }
        : { name: updated.name, version: updated.version, note },
    });
    return { automation: view(updated), published: !unchanged, impact };
  });
}

async function reactivate(tx: Tx, id: string): Promise<AutomationRow> {
  const [updated] = await tx
    .update(automations)
    .set({ status: "active", activatedAt: new Date(), updatedAt: new Date() })
    .where(eq(automations.id, id))
    .returning();
  await syncSchedules(tx, updated!);
  return updated!;
}

/** Pause or activate without changing the version ("off means off": due waits are dropped while paused). */
export async function setActive(
  caller: Caller,
  id: string,
  active: boolean,
): Promise<{ automation: AutomationView; impact: Impact }> {
  return getDb().transaction(async (tx) => {
    const row = await loadRow(tx, caller.tenant.id, id, true);
    assertMayChange(caller, row);
    if (active && row.version === 0)
      throw new AppError(409, "conflict", "Publish this automation before activating it.");
    if (row.status === "archived") throw new AppError(409, "conflict", "This automation is archived.");
    const impact = await impactOf(row, "pause");
    const [updated] = await tx
      .update(automations)
      .set({
        status: active ? "active" : "paused",
        ...(active ? { activatedAt: new Date() } : {}),
        updatedAt: new Date(),
      })
      .where(eq(automations.id, row.id))
      .returning();
    // Paused schedules stop firing; re-activated ones fire next after now ("off means off").
    await syncSchedules(tx, updated!);
    if (row.status !== updated!.status)
      await recordAudit(tx, caller, {
        action: active ? "automation.activated" : "automation.paused",
        ...automationSubject(updated!),
        detail: { name: updated!.name, version: updated!.version },
      });
    return { automation: view(updated!), impact };
  });
}

/**
 * Archives an automation (SPEC §4 `DELETE /api/v1/automations/:id`): it stops for good — no new
 * runs, schedules stop, waiting runs are cancelled when they wake (wake table: "archived") — and
 * its runs, versions and history are kept. Built-ins are refused (409). Archiving twice is a no-op.
 */
export async function archiveAutomation(
  caller: Caller,
  id: string,
): Promise<{ automation: AutomationView; impact: Impact }> {
  return getDb().transaction(async (tx) => {
    const row = await loadRow(tx, caller.tenant.id, id, true);
    assertArchivable(row);
    const impact = await impactOf(row, "archive");
    if (row.status === "archived") return { automation: view(row), impact };
    const [updated] = await tx
      .update(automations)
      .set({ status: "archived", updatedAt: new Date() })
      .where(eq(automations.id, row.id))
      .returning();
    await syncSchedules(tx, updated!);
    await recordAudit(tx, caller, {
      action: "automation.archived",
      ...automationSubject(updated!),
      detail: { name: updated!.name, version: updated!.version },
    });
    return { automation: view(updated!), impact };
  });
}

/**
 * Brings an archived automation back as paused: nothing runs until someone activates it (runs
 * that were waiting when it was archived and woke meanwhile stay cancelled). Only archived ones.
 */
export async function restoreAutomation(caller: Caller, id: string): Promise<AutomationView> {
  return getDb().transaction(async (tx) => {
    const row = await loadRow(tx, caller.tenant.id, id, true);
    if (row.status !== "archived") throw new AppError(409, "conflict", "This automation is not archived.");
    const [updated] = await tx
      .update(automations)
      .set({ status: "paused", updatedAt: new Date() })
      .where(eq(automations.id, row.id))
      .returning();
    await syncSchedules(tx, updated!);
    await recordAudit(tx, caller, {
      action: "automation.restored",
      ...automationSubject(updated!),
      detail: { name: updated!.name, version: updated!.version },
    });
    return view(updated!);
  });
}

export async function listVersions(tenantId: string, id: string) {
  const row = await loadRow(getDb(), tenantId, id);
  const versions = await getDb()
    .select()
    .from(automationVersions)
    .where(eq(automationVersions.automationId, row.id))
    .orderBy(desc(automationVersions.version));
  return versions.map((v) => ({
    version: v.version,
    name: v.name,
    graph: v.graph,
    inFlightPolicy: v.inFlightPolicy,
    note: v.note,
    author: v.author,
    createdAt: v.createdAt.toISOString(),
    active: v.version === row.version,
  }));
}

/** Publishes an old snapshot as a new version (history is append-only, like `git revert`). */
export async function revertToVersion(
  caller: Caller,
  id: string,
  versionParam: string,
): Promise<AutomationView> {
  const version = Number(versionParam);
  if (!Number.isInteger(version) || version < 1) throw notFound(`Version '${versionParam}'`);
  return getDb().transaction(async (tx) => {
    const row = await loadRow(tx, caller.tenant.id, id, true);
    assertMayChange(caller, row);
    const [snapshot] = await tx
      .select()
      .from(automationVersions)
      .where(and(eq(automationVersions.automationId, row.id), eq(automationVersions.version, version)));
    if (!snapshot) throw notFound(`Version ${version} of this automation`);
    const updated = await publishGraph(tx, row, caller, {
      graph: snapshot.graph,
      name: snapshot.name,
      policy: snapshot.inFlightPolicy,
      note: `Reverted to version ${version}.`,
    });
    await recordAudit(tx, caller, {
      action: "automation.reverted",
      ...automationSubject(updated),
      detail: { name: updated.name, fromVersion: row.version, toVersion: version, version: updated.version },
    });
    return view(updated);
  });
}

export const listQuery = z.object({
  q: z.string().max(200).optional(),
  status: z.enum(["draft", "active", "paused", "archived"]).optional(),
  cursor: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

export interface AutomationListItem {
  id: string;
  name: string;
  status: AutomationRow["status"];
  version: number;
  triggerTypes: string[];
  updatedAt: string;
  lastRunAt: string | null;
  waitingRuns: number;
  /** A platform built-in (can be paused and reset, never archived). */
  builtin: boolean;
}

export async function listAutomations(tenantId: string, query: unknown = {}) {
  const { q, status, cursor, limit } = parseOrThrow(listQuery, query, "The list query is invalid");
  const after = cursor ? decodeCursor(cursor) : null;
  const rows = await getDb()
    .select({
      id: automations.id,
      name: automations.name,
      status: automations.status,
      version: automations.version,
      graph: automations.draftGraph,
      builtinSlug: automations.builtinSlug,
      updatedAt: automations.updatedAt,
      lastRunAt: sql<Date | null>`(select max(created_at) from automation_runs r where r.tenant_id = ${tenantId} and r.automation_id = "automations"."id")`,
      waitingRuns: sql<number>`(select count(*)::int from automation_runs r where r.tenant_id = ${tenantId} and r.automation_id = "automations"."id" and r.status = 'waiting')`,
    })
    .from(automations)
    .where(
      and(
        eq(automations.tenantId, tenantId),
        status ? eq(automations.status, status) : sql`${automations.status} <> 'archived'`,
        q ? ilike(automations.name, `%${q.replace(/[%_\\]/g, "\\$&")}%`) : undefined,
        afterCursor(automations.updatedAt, automations.id, after),
      ),
    )
    .orderBy(desc(automations.updatedAt), desc(automations.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const items: AutomationListItem[] = page.map((r) => ({
    id: r.id,
    name: r.name,
    status: r.status,
    version: r.version,
    triggerTypes: r.graph.nodes
      .filter((n) => registry.get(n.type)?.category === "trigger")
      .map((n) => n.type),
    updatedAt: r.updatedAt.toISOString(),
    lastRunAt: r.lastRunAt ? new Date(r.lastRunAt).toISOString() : null,
    waitingRuns: r.waitingRuns,
    builtin: r.builtinSlug !== null,
  }));
  return { items, nextCursor: rows.length > limit && last ? encodeCursor(last.updatedAt, last.id) : null };
}
