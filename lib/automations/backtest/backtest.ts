import { z } from "zod";
import type { Caller } from "@/lib/identity/caller";
import { isDomain } from "@/lib/domains/domains";
import { entityLabel } from "@/lib/domains/labels";
import { parseOrThrow } from "@/lib/errors";
import { loadRunRecords, pinnedRecord } from "@/lib/automations/engine/entity";
import { stepLabel } from "@/lib/automations/engine/step-labels";
import { registry } from "@/lib/automations/nodes/registry";
import { getAutomation } from "@/lib/automations/lifecycle/read";
import { graphToTry } from "@/lib/automations/dry-run/start";
import { compareRuns, type BacktestComparison, type RunReplay } from "./compare";
import { latestRuns, type PastRun } from "./history";
import { replayRun } from "./replay";

/**
 * The backtest ("what would this draft have done to my last orders?", SPEC §2 "Backtest and
 * why"): the automation's latest real runs replayed through a graph — the draft by default —
 * with no effects, and compared with what they did:
 *
 *   1. The graph (`graphToTry`, as a dry run): refused with its ready issues.
 *   2. The runs (`latestRuns`, history.ts): the latest that started from a real event, with the
 *      steps all their parts took and how their waits went.
 *   3. Their records, as they are now (`loadRunRecords`, one query for all of them, as the
 *      engine's batches load them); a run's first part sees the status its event fired for.
 *   4. Each run replayed (`replayRun`, replay.ts): the dry run's walk through every wait, each
 *      ending as the real run's did.
 *   5. The comparison (`compareRuns`, compare.ts): per step, the runs then and now; the runs
 *      whose path changed and those whose later steps are not known yet; all of it in words.
 *
 * Nothing is written: no run, step, tag, note, email or delivery.
 */

export const BACKTEST_DEFAULT_RUNS = 50;
export const BACKTEST_MAX_RUNS = 500;

export const backtestInput = z.strictObject({
  graph: z.unknown().optional(),
  limit: z
    .int({ error: "must be a whole number of runs" })
    .min(1, { error: "must be at least 1 run" })
    .max(BACKTEST_MAX_RUNS, { error: `can be at most ${BACKTEST_MAX_RUNS} runs` })
    .optional(),
});

export interface BacktestResult extends BacktestComparison {
  /** Each step reached then or now, as drawn ("Add tag 'vip'"); a step the draft removed, as it was. */
  labels: Record<string, string>;
  /** What the replay could not know or do, each said once. */
  notes: string[];
}

export async function backtest(caller: Caller, automationId: string, body: unknown): Promise<BacktestResult> {
  const input = parseOrThrow(backtestInput, body ?? {}, "The backtest is invalid");
  const tenantId = caller.tenant.id;
  const automation = await getAutomation(tenantId, automationId);
  const graph = graphToTry(caller, input.graph === undefined ? automation.draftGraph : input.graph);
  const runs = await latestRuns(tenantId, automationId, input.limit ?? BACKTEST_DEFAULT_RUNS);
  // As they are now: a resumed part reads the record again; the first part pins its status.
  const records = await loadRunRecords(runs, { pinStatus: false });
  const of = { tenantId, timeZone: caller.tenant.timezone, automation };
  const notes = new Set<string>([
    "Nothing was saved or sent: each run was replayed through its waits as if they had ended (an approval or a wait for an event as it went in the real run), on its record as it is now.",
  ]);
  const replays: RunReplay[] = [];
  let undecided = false;
  for (const run of runs) {
    const record = records.entities.get(run.id) ?? null;
    const replay = await replayRun(of, graph, run, record, record && pinnedRecord(record, run.event));
    for (const note of replay.notes) notes.add(note);
    undecided ||= replay.undecided.length > 0;
    replays.push({
      runId: run.id,
      entity:
        record && isDomain(record.domain)
          ? {
              domain: record.domain,
              id: record.id,
              label: entityLabel(record.domain, record.id, record.data),
            }
          : null,
      then: run.then,
      possible: replay.possible,
      ...(replay.undecided.length > 0 ? { undecided: replay.undecided } : {}),
      ...(inFlight(run) ? { inFlight: inFlight(run)! } : {}),
    });
  }
  if (undecided)
    notes.add(
      "Where a run meets an approval or a wait for an event it never had, each way it could go was followed.",
    );
  const active = automation.activeGraph;
  const labelOf = (nodeId: string) => {
    const drawn = graph.nodes.some((n) => n.id === nodeId) ? graph : active;
    const node = drawn?.nodes.find((n) => n.id === nodeId);
    return stepLabel(drawn, nodeId, node?.type ?? nodeId);
  };
  const triggers = new Set(
    [...graph.nodes, ...(active?.nodes ?? [])]
      .filter((node) => registry.get(node.type)?.category === "trigger")
      .map((node) => node.id),
  );
  // A condition only decides: the paths compared are the steps that act and wait.
  const conditions = new Set([
    ...[...graph.nodes, ...(active?.nodes ?? [])]
      .filter((node) => registry.get(node.type)?.category === "condition")
      .map((node) => node.id),
    ...runs.flatMap((run) => run.conditions),
  ]);
  const comparison = compareRuns(replays, {
    order: graph.nodes.map((n) => n.id),
    labelOf,
    triggers,
    conditions,
  });
  const reached = new Set([...Object.keys(comparison.then), ...Object.keys(comparison.now)]);
  return {
    ...comparison,
    labels: Object.fromEntries([...reached].map((nodeId) => [nodeId, labelOf(nodeId)])),
    notes: [...notes],
  };
}

/** Whether the real run is not over: it waits at a step, or it still takes steps or will try one again. */
function inFlight(run: PastRun): RunReplay["inFlight"] {
  if (run.status === "running" || run.retrying) return "running";
  if (run.status === "waiting") return "waiting";
  return undefined;
}
