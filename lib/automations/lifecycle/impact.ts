import { and, eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { automations, automationVersions } from "@/lib/db/schema";
import { isUuid, notFound } from "@/lib/errors";
import type { Graph } from "@/lib/automations/graph/schema";
import { registry } from "@/lib/automations/nodes/registry";
import { waitingByNode } from "@/lib/automations/waits/waits";
import { stepLabel, versionGraphs } from "@/lib/automations/engine/step-labels";
import { diffGraphs } from "@/lib/automations/review/diff";
import { POLICY_SENTENCES, type InFlightPolicy } from "./policies";
import type { AutomationRow } from "./read";

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
  const events = byNode.some((w) => w.kind === "event");
  const then =
    action === "pause"
      ? `any that come due${events ? " (or whose event comes)" : ""} while the automation is paused will be cancelled; those due after you activate it again continue.`
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

/**
 * "1 run is waiting at 'Wait 2 days', 2 runs await approval at 'Approve refund', 1 run is waiting
 * for an event at 'Wait up to 3 days for Order fulfilled'", counts merged by label.
 */
export function whereWaiting(groups: { label: string; kind: string; count: number }[]): string {
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
      if (kind === "event") return `${runs} ${count === 1 ? "is" : "are"} waiting for an event at '${label}'`;
      return `${runs} ${count === 1 ? "is" : "are"} waiting at '${label}'`;
    })
    .join(", ");
}

/** The event types a graph's triggers listen to. */
export function triggerEvents(graph: Graph): string[] {
  const events = graph.nodes.flatMap((n) => {
    const definition = registry.get(n.type);
    return definition?.category === "trigger" && definition.event ? [definition.event] : [];
  });
  return [...new Set(events)];
}
export type ImpactAction = "publish" | "pause" | "archive";

/**
 * What publishing, pausing or archiving this automation would do to the runs waiting right now, read before
 * the person acts (SPEC §2: "The admin is told, before pausing or publishing, …"). Read-only.
 *
 * For publish, `options.version` asks "what if this old version were published" (a revert): it
 * brings its steps and its in-flight policy, so runs waiting on a version with the same steps
 * continue and the others follow that policy. `options.policy` asks "what if the policy were this
 * one" (the publish dialog's choice). Default: the draft and the automation's own policy.
 *
 * An automation of another tenant, or an id that is not one, is simply not found (404).
 */
export async function automationImpact(
  tenantId: string,
  id: string,
  action: ImpactAction,
  options: { policy?: InFlightPolicy; version?: number } = {},
): Promise<Impact> {
  if (!isUuid(id)) throw notFound("That automation");
  const [row] = await getDb()
    .select()
    .from(automations)
    .where(and(eq(automations.tenantId, tenantId), eq(automations.id, id)));
  if (!row) throw notFound("That automation");
  if (options.version === undefined)
    return impactOf(row, action, { graph: row.draftGraph, policy: options.policy ?? row.inFlightPolicy });
  const [snapshot] = await getDb()
    .select({ graph: automationVersions.graph, policy: automationVersions.inFlightPolicy })
    .from(automationVersions)
    .where(and(eq(automationVersions.automationId, row.id), eq(automationVersions.version, options.version)));
  if (!snapshot) throw notFound(`Version ${options.version} of this automation`);
  return impactOf(row, action, { graph: snapshot.graph, policy: options.policy ?? snapshot.policy });
}
