import { sql } from "drizzle-orm";
import { isDatabaseUnavailable } from "@/lib/db/reachability";
import { getDb } from "@/lib/db/client";
import { uuidArray } from "@/lib/db/array-literal";
import { isDomain } from "@/lib/domains/domains";
import { registry } from "@/lib/automations/nodes/registry";
import { finishRuns } from "@/lib/automations/store/runs";
import { metrics } from "@/lib/metrics/metrics";
import { loadVersion } from "@/lib/automations/store/versions";
import { cancelPendingWaitsOf, completeSteps } from "@/lib/automations/store/waits";
import { claimRuns, claimWaits, stillPending, type ClaimedLeg } from "./claim";
import { LegTakenOver, lostClaims, type LegClaim } from "./fence";
import { EntityNotFoundError, loadRunRecords } from "./entity";
import { evaluatorFor } from "./evaluate";
import { pathChange } from "./message-path";
import { followUpOf } from "./follow-up";
import { MAX_PLANNED_STEPS, planFrom, STEP_LIMIT_REASON, type PlannedStep } from "./interpreter";
import { newLeg, type LegContext } from "./leg";
import { keptOutput } from "./kept-output";
import type { Graph } from "@/lib/automations/graph/schema";
import { parseSubActionId } from "./sub-action";
import { entryTouch } from "./touches";
import { insertTouches, type NewTouch } from "@/lib/automations/store/touches";
import { startingLeg, type Leg, type RecordedAction } from "./leg-state";
import { executeLegs } from "./phase";
import { decideStart, decideWake, type Decision } from "./wake";
import { messageOf } from "@/lib/errors";
import { log } from "@/lib/log/logger";

/**
 * The leg pipeline: every leg of every run — a first leg from its trigger, a resumed leg from its
 * wait — goes through here, one at a time or a thousand together, by the same code:
 *
 *   claim (one statement per kind) → decide (the wake table, pure) → load records (one query)
 *   → plan (the interpreter, pure) → execute in phases (phase.ts) → settle
 *
 * A leg that may not run (automation off, record gone, plan too long) is stopped before it acts,
 * all such legs in one transaction. Everything is keyed per (run, node, leg), so a job that runs
 * twice replays what the first attempt recorded instead of repeating it.
 */

/** `jobId`: the graphile-worker job that asked for the leg, for its log lines. */
export type LegRequest = ({ kind: "start"; runId: string } | { kind: "resume"; waitId: string }) & {
  jobId?: string;
};

/** `ran`: the leg executed · `stopped`: it ended its run without acting · `noop`: nothing to claim. */
export type LegOutcome = "ran" | "stopped" | "noop";

const keyOf = (request: LegRequest) => (request.kind === "start" ? request.runId : request.waitId);
const claimKey = (claim: ClaimedLeg) => claim.wait?.id ?? claim.runId;
const legClaimOf = (claim: ClaimedLeg): LegClaim => ({
  runId: claim.runId,
  waitId: claim.wait?.id ?? null,
  token: claim.token,
});

interface Stop {
  claim: ClaimedLeg;
  status: "cancelled" | "failed" | "held_out";
  message: string;
  /** A held-out customer's entry, written with the run's end (engine/touches.ts). */
  touch?: NewTouch;
}

/** Why a held-out customer's run took no action (docs/performance-of-automations.md). */
export const HELD_OUT_REASON =
  "Held out: this customer is in the automation's holdout group, so the run took no actions and counts as the comparison.";

/**
 * Ends legs that will not run: their wait steps, their runs' other waits, and the runs — but not
 * a leg a peer took over meanwhile (fence.ts). Returns the claim keys of the legs it ended.
 */
async function stopLegs(all: Stop[]): Promise<Set<string>> {
  if (all.length === 0) return new Set();
  return getDb().transaction(async (tx) => {
    const lost = await lostClaims(
      tx,
      all.map((s) => legClaimOf(s.claim)),
    );
    const lostKeys = new Set(lost.map((c) => c.waitId ?? c.runId));
    const stops = all.filter((s) => !lostKeys.has(claimKey(s.claim)));
    await completeSteps(
      tx,
      stops.flatMap(({ claim, status, message }) =>
        claim.wait?.stepId
          ? [
              status === "cancelled"
                ? { stepId: claim.wait.stepId, status: "skipped" as const, reason: message }
                : { stepId: claim.wait.stepId, status: "failed" as const, error: message },
            ]
          : [],
      ),
    );
    await cancelPendingWaitsOf(
      tx,
      stops.map(({ claim, status, message }) => ({
        runId: claim.runId,
        reason: status === "cancelled" ? message : "The run failed in another branch.",
      })),
    );
    await finishRuns(
      tx,
      stops.map(({ claim, status, message }) => ({
        runId: claim.runId,
        status,
        ...(status === "failed" ? { error: message } : { reason: message }),
      })),
    );
    await insertTouches(
      tx,
      stops.flatMap((s) => (s.touch ? [s.touch] : [])),
    );
    return new Set(stops.map((s) => claimKey(s.claim)));
  });
}

/**
 * The retry legs of actions a code step asked for (`code1#2`): each retries that action alone,
 * as the step's recorded output lists it (the script is not run again). By claim key.
 */
async function retriedFollowUps(claims: ClaimedLeg[]): Promise<Map<string, PlannedStep>> {
  const keys = claims.flatMap((claim) => {
    const sub = claim.retry ? parseSubActionId(claim.startNodeId) : null;
    return sub && claim.retry
      ? [{ r: claim.runId, n: sub.nodeId, l: claim.retry.keyLeg, k: claimKey(claim), id: claim.startNodeId }]
      : [];
  });
  const steps = new Map<string, PlannedStep>();
  if (keys.length === 0) return steps;
  const rows = await getDb().execute<{
    k: string;
    id: string;
    node_id: string;
    node_type: string;
    response: Record<string, unknown> | null;
  }>(sql`
    select v.k, v.id, d.node_id, d.node_type, d.response
    from json_to_recordset(${JSON.stringify(keys)}::json) as v(r uuid, n text, l int, k text, id text)
    join action_deliveries d on d.run_id = v.r and d.node_id = v.n and d.leg = v.l and d.status = 'delivered'`);
  for (const row of rows) {
    const followUp = row.response
      ? followUpOf({ nodeId: row.node_id, nodeType: row.node_type }, row.response)
      : null;
    const step = followUp?.actions.find((action) => action.nodeId === row.id);
    if (step) steps.set(row.k, step);
  }
  return steps;
}

/** What earlier attempts of these legs recorded, by run and node (the replay of a retried job). */
async function loadRecorded(legs: Leg[]): Promise<Map<string, Map<string, RecordedAction>>> {
  const byRun = new Map<string, Map<string, RecordedAction>>(legs.map((leg) => [leg.ctx.runId, new Map()]));
  if (legs.length === 0) return byRun;
  const keys = legs.map((leg) => ({ r: leg.ctx.runId, l: leg.ctx.leg }));
  const rows = await getDb().execute<Record<string, unknown>>(sql`
    select d.run_id, d.node_id, d.status, d.request, d.response, d.error, s.status as step_status, s.output as step_output
    from json_to_recordset(${JSON.stringify(keys)}::json) as v(r uuid, l int)
    join action_deliveries d on d.run_id = v.r and d.leg = v.l
    left join automation_run_steps s on s.run_id = d.run_id and s.node_id = d.node_id and s.leg = d.leg`);
  for (const row of rows) {
    byRun.get(String(row.run_id))?.set(String(row.node_id), {
      status: row.status as RecordedAction["status"],
      request: row.request as Record<string, unknown>,
      response: row.response as Record<string, unknown> | null,
      error: row.error as string | null,
      step: row.step_status
        ? { status: String(row.step_status), output: row.step_output as Record<string, unknown> | null }
        : null,
    });
  }
  return byRun;
}

/** What a run did in the legs before this one: how many steps (the step guard counts the whole run), and their outputs. */
interface EarlierSteps {
  count: number;
  /** Each node's output in the latest leg that took it: `{steps.<id>.…}` after a wait, too. */
  outputs: Record<string, Record<string, unknown>>;
}

async function earlierSteps(legs: ClaimedLeg[]): Promise<Map<string, EarlierSteps>> {
  if (legs.length === 0) return new Map();
  const keys = legs.map((claim) => ({ r: claim.runId, l: claim.leg }));
  const rows = await getDb().execute<{
    run_id: string;
    node_id: string;
    node_type: string;
    output: Record<string, unknown> | null;
  }>(sql`
    select s.run_id, s.node_id, s.node_type, case when s.status = 'success' then s.output end as output
    from json_to_recordset(${JSON.stringify(keys)}::json) as v(r uuid, l int)
    join automation_run_steps s on s.run_id = v.r and s.leg < v.l
    order by s.run_id, s.leg, s.position`);
  const byRun = new Map<string, EarlierSteps>();
  for (const row of rows) {
    const runId = String(row.run_id);
    let earlier = byRun.get(runId);
    if (!earlier) byRun.set(runId, (earlier = { count: 0, outputs: {} }));
    earlier.count += 1;
    if (row.output) earlier.outputs[row.node_id] = handedOn(row, row.output);
  }
  return byRun;
}

/** What a recorded step hands on: a code step's returned value, not its record of actions. */
function handedOn(step: { node_id: string; node_type: string }, output: Record<string, unknown>) {
  try {
    return followUpOf({ nodeId: step.node_id, nodeType: step.node_type }, output)?.output ?? output;
  } catch {
    return output;
  }
}

async function decide(claim: ClaimedLeg): Promise<Decision> {
  const db = getDb();
  const started = await loadVersion(db, claim.automationId, claim.automationVersion);
  if (!claim.wait) return decideStart(claim.automation, started);
  const current = claim.automation?.version;
  const latest =
    current === undefined || current === claim.automationVersion
      ? started
      : await loadVersion(db, claim.automationId, current);
  return decideWake({
    automation: claim.automation,
    wait: { automationVersion: claim.automationVersion, nodeId: claim.startNodeId },
    started,
    latest,
  });
}

/** Claimed legs → decided, loaded and planned legs ready to execute; the rest stopped. */
async function prepareLegs(claims: ClaimedLeg[], results: Map<string, LegOutcome | Error>) {
  const stops: Stop[] = [];
  const going: { claim: ClaimedLeg; decision: Extract<Decision, { go: true }> }[] = [];
  for (const claim of claims) {
    const decision = await decide(claim);
    if (decision.go) going.push({ claim, decision });
    else stops.push({ claim, status: "cancelled", message: decision.reason });
  }
  // The first leg sees the status its event fired for; a resumed leg sees the record as it is now.
  const runsOf = (first: boolean) =>
    going
      .filter(({ claim }) => (claim.wait === null) === first)
      .map(({ claim }) => ({ id: claim.runId, tenantId: claim.tenantId, event: claim.event }));
  const firsts = await loadRunRecords(runsOf(true), { pinStatus: true });
  const resumed = await loadRunRecords(runsOf(false), { pinStatus: false });
  const entities = new Map([...firsts.entities, ...resumed.entities]);
  const timeZones = new Map([...firsts.timeZones, ...resumed.timeZones]);

  const before = await earlierSteps(going.filter(({ claim }) => claim.wait).map(({ claim }) => claim));
  const followUps = await retriedFollowUps(going.map(({ claim }) => claim));
  const legs: Leg[] = [];
  const claimOf = new Map<Leg, ClaimedLeg>();
  const moved: { id: string; version: number }[] = [];
  const entered: NewTouch[] = [];
  for (const { claim, decision } of going) {
    const entity = entities.get(claim.runId) ?? null;
    const { domain, entityId } = claim.event;
    if (!entity && isDomain(domain) && entityId) {
      stops.push({ claim, status: "failed", message: new EntityNotFoundError(domain, entityId).message });
      continue;
    }
    const ctx = newLeg({
      tenantId: claim.tenantId,
      runId: claim.runId,
      automationId: claim.automationId,
      automationName: decision.version.name,
      automationVersion: decision.version.version,
      leg: claim.leg,
      event: claim.event,
      entity,
      timeZone: timeZones.get(claim.tenantId) ?? "UTC",
      ...(claim.retry ? { retry: claim.retry } : {}),
    });
    // What the run's earlier legs handed on, and the event that woke this one, before any
    // condition of the leg is decided.
    const earlier = before.get(claim.runId);
    Object.assign(ctx.steps, earlier?.outputs);
    // A first leg of an automation that holds customers out: its customer's entry, and a held-out
    // customer's run ends here, having taken no action (a stable hash: the same customer each time).
    if (!claim.wait && !claim.includeStart) {
      const entry = entryTouch(ctx, claim.startNodeId, claim.automation?.holdoutPercent ?? 0);
      if (entry?.kind === "holdout") {
        stops.push({ claim, status: "held_out", message: HELD_OUT_REASON, touch: entry });
        continue;
      }
      if (entry) entered.push(entry);
    }
    const woken = claim.wokenEvent ? wokenOutput(ctx, decision.version.graph, claim) : null;
    if (woken) ctx.steps[claim.startNodeId] = woken;
    // A deferred message's turn: its path's conditions decided again on the record as it is now.
    if (claim.deferred)
      ctx.deferred = {
        nodeId: claim.deferred.nodeId,
        changed: pathChange(ctx, decision.version.graph, claim.deferred.path),
      };
    let plan;
    try {
      const followUp = followUps.get(claimKey(claim));
      plan = followUp
        ? [followUp]
        : planFrom(decision.version.graph, claim.startNodeId, registry, evaluatorFor(ctx), {
            startHandle: claim.startHandle,
            includeStart: claim.includeStart === true,
          });
    } catch (error) {
      stops.push({
        claim,
        status: "failed",
        message: messageOf(error),
      });
      continue;
    }
    if ((earlier?.count ?? 0) + plan.length > MAX_PLANNED_STEPS) {
      stops.push({ claim, status: "failed", message: STEP_LIMIT_REASON });
      continue;
    }
    if (decision.version.version !== claim.automationVersion)
      moved.push({ id: claim.runId, version: decision.version.version });
    const leg = startingLeg(
      ctx,
      decision.version.graph,
      plan,
      claim.wait ? openingOf(claim, decision.note, woken) : null,
      legClaimOf(claim),
    );
    legs.push(leg);
    claimOf.set(leg, claim);
  }
  // Idempotent (a replayed first leg writes the same key): kept out of the phase, which may be undone and retried.
  await insertTouches(getDb(), entered);
  const ended = await stopLegs(stops);
  for (const stop of stops)
    results.set(claimKey(stop.claim), ended.has(claimKey(stop.claim)) ? "stopped" : "noop");
  if (moved.length > 0) {
    await getDb().execute(sql`
      update automation_runs r set automation_version = v.version
      from json_to_recordset(${JSON.stringify(moved)}::json) as v(id uuid, version int)
      where r.id = any(${uuidArray(moved.map((m) => m.id))}::uuid[]) and r.id = v.id`);
  }
  const replays = legs.filter((leg) => claimOf.get(leg)!.replay);
  const recorded = await loadRecorded(replays);
  for (const leg of replays) leg.recorded = recorded.get(leg.ctx.runId) ?? new Map();
  return { legs, claimOf };
}

/**
 * A wait for an event's output once the event came: what it showed while waiting and the event
 * (`{steps.<id>.event.…}`), held to the limits on outputs like any step's.
 */
function wokenOutput(ctx: LegContext, graph: Graph, claim: ClaimedLeg): Record<string, unknown> {
  const nodeType = graph.nodes.find((n) => n.id === claim.startNodeId)?.type ?? "";
  const output = { ...ctx.steps[claim.startNodeId], event: claim.wokenEvent };
  return keptOutput(ctx, { nodeId: claim.startNodeId, nodeType }, output);
}

/** How a resumed leg completes its wait's step: the wake table's note, and the event that woke it. */
function openingOf(
  claim: ClaimedLeg,
  note: string | null,
  woken: Record<string, unknown> | null,
): Leg["opening"] {
  const stepId = claim.wait?.stepId ?? null;
  if (!woken) return { stepId, note };
  const type = String(claim.wokenEvent?.type ?? "the event");
  return { stepId, note: [`Received ${type}.`, note].filter(Boolean).join(" "), output: woken };
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * Runs legs — any number, first and resumed alike — and says how each went, by run id (first
 * legs) or wait id (resumed legs). A first leg's unexpected error is returned, so its job is
 * retried (and replays); a resumed leg's fails its wait step and its run, so a run never hangs
 * in `waiting`. `apart` is called once the legs no longer share work (see `executeLegs`): the
 * batcher's slot is free from then on, while each leg goes on alone. `light`: the batcher's light
 * lane (batcher.ts), whose phase does not queue behind the backlog's (`executeLegs`).
 */
export async function runLegs(
  requests: LegRequest[],
  apart?: () => void,
  { light = false }: { light?: boolean } = {},
): Promise<Map<string, LegOutcome | Error>> {
  const results = new Map<string, LegOutcome | Error>();
  const runIds = [...new Set(requests.flatMap((r) => (r.kind === "start" ? [r.runId] : [])))];
  const waitIds = [...new Set(requests.flatMap((r) => (r.kind === "resume" ? [r.waitId] : [])))];
  const claims = [...(await claimRuns(runIds)), ...(await claimWaits(waitIds))];
  const claimed = new Set(claims.map(claimKey));
  // A second wait of a run claimed here waits for this leg to end (one leg of a run at a time).
  const later = claims.length > 0 ? await stillPending(waitIds.filter((id) => !claimed.has(id))) : [];

  const { legs, claimOf } = await prepareLegs(claims, results);
  const jobIdOf = new Map(
    requests.flatMap((r) => (r.jobId === undefined ? [] : [[keyOf(r), r.jobId] as const])),
  );
  /** The fields of a leg's log lines (docs/logging.md). */
  const fieldsOf = (leg: Leg) => ({
    tenantId: leg.ctx.tenantId,
    runId: leg.ctx.runId,
    leg: leg.ctx.leg,
    jobId: jobIdOf.get(claimKey(claimOf.get(leg)!)),
    automationId: leg.ctx.automationId,
  });
  for (const leg of legs) results.set(claimKey(claimOf.get(leg)!), "ran");
  const reload = async (leg: Leg) => {
    leg.recorded = (await loadRecorded([leg])).get(leg.ctx.runId) ?? new Map();
  };
  const stop = async (leg: Leg, reason: string) => {
    const claim = claimOf.get(leg)!;
    const ended = await stopLegs([{ claim, status: "failed", message: reason }]);
    results.set(claimKey(claim), ended.size > 0 ? "stopped" : "noop");
  };
  const onError = async (leg: Leg, error: unknown) => {
    const claim = claimOf.get(leg)!;
    const key = claimKey(claim);
    if (error instanceof LegTakenOver) {
      // Cut off long enough for a peer to take the leg over: the peer finishes it (fence.ts). The
      // job fails rather than completes: graphile-worker completes a job by id alone, which could
      // delete the peer's retry of it, but fails one only while this worker still holds it.
      log().warn({ ...fieldsOf(leg), err: error }, error.message);
      results.set(key, error);
      return;
    }
    // The database itself was unavailable (a Postgres restart): not the run's fault. The job is
    // retried like a first leg's, and claimWaits returns the leg as a replay (keyed steps and
    // deliveries, nothing repeated) instead of failing a run a restart happened to interrupt.
    if (!claim.wait || isDatabaseUnavailable(error)) {
      results.set(key, asError(error));
      return;
    }
    log().error({ ...fieldsOf(leg), err: error, waitId: key }, `Resuming wait ${key} failed.`);
    try {
      const ended = await stopLegs([
        {
          claim,
          status: "failed",
          message: `The run could not continue after the wait: ${asError(error).message}`,
        },
      ]);
      results.set(key, ended.size > 0 ? "stopped" : "noop");
    } catch (recording) {
      results.set(key, asError(recording));
    }
  };
  await executeLegs(legs, { reload, onError, stop }, apart, light);
  metrics().legs.inc(legs.length);
  for (const leg of legs) {
    const outcome = results.get(claimKey(claimOf.get(leg)!));
    if (outcome instanceof Error && !(outcome instanceof LegTakenOver))
      log().warn(
        { ...fieldsOf(leg), err: outcome },
        `Leg ${leg.ctx.leg} of run ${leg.ctx.runId} failed; its job will retry it.`,
      );
    else log().debug({ ...fieldsOf(leg), outcome }, `Leg ${leg.ctx.leg} of run ${leg.ctx.runId} ${outcome}.`);
  }

  for (const request of requests)
    if (!results.has(keyOf(request)) && !later.includes(keyOf(request))) results.set(keyOf(request), "noop");
  if (later.length > 0) {
    for (const [key, outcome] of await runLegs(later.map((waitId) => ({ kind: "resume" as const, waitId }))))
      results.set(key, outcome);
  }
  return results;
}

/** The first leg of one run (a batch of one). Throws what a job should retry on. */
export async function executeRun(runId: string): Promise<void> {
  const outcome = (await runLegs([{ kind: "start", runId }])).get(runId);
  if (outcome instanceof Error) throw outcome;
}

/** Resumes one wait (a batch of one): `resumed`, `skipped` (stopped by the wake table or an error) or `noop`. */
export async function resumeWait(waitId: string): Promise<"resumed" | "skipped" | "noop"> {
  const outcome = (await runLegs([{ kind: "resume", waitId }])).get(waitId);
  if (outcome instanceof Error) throw outcome;
  return outcome === "ran" ? "resumed" : outcome === "stopped" ? "skipped" : "noop";
}
