import { sql } from "drizzle-orm";
import { getDb, type Tx } from "@/lib/db/client";
import { actionDeliveries, type RunEvent } from "@/lib/db/schema";
import { isDomain } from "@/lib/entities/domains";
import { registry } from "@/lib/automations/nodes/registry";
import { executorFor } from "@/lib/automations/nodes/executors";
import {
  ActionError,
  type ActionContext,
  type ActionOutput,
  type DatabaseExecutor,
} from "@/lib/automations/nodes/executor";
import { RUN_DURATION_MS, settleRuns } from "@/lib/automations/store/runs";
import { recordSteps, type StepRecord } from "@/lib/automations/store/steps";
import { loadVersion } from "@/lib/automations/store/versions";
import { loadRunEntities } from "./entity";
import { evaluatorFor } from "./evaluate";
import { batchTransactionLimit } from "./limits";
import { NOT_ACTIVE_REASON } from "./execute";
import { actionContext, redact, type LegContext } from "./execute-shared";
import { planFrom, type PlannedStep } from "./interpreter";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A Postgres array literal of uuids (drizzle would spread a JS array into separate parameters). */
export function uuidArray(ids: string[]): string {
  for (const id of ids) if (!UUID.test(id)) throw new Error(`Not a run id: ${id}`);
  return `{${ids.join(",")}}`;
}

interface ClaimedRun {
  id: string;
  tenantId: string;
  automationId: string;
  automationVersion: number;
  event: RunEvent;
  triggerNodeId: string;
  automationStatus: string | null;
}

/**
 * Claims many queued runs in one statement, with their automation's live status. Runs that
 * already have steps or deliveries (an earlier attempt) are claimed too; the caller sends them
 * down the one-run path, which knows how to replay.
 */
async function claimRuns(runIds: string[]): Promise<{ runs: ClaimedRun[]; retried: Set<string> }> {
  const rows = await getDb().execute<Record<string, unknown>>(sql`
    update automation_runs r set
      status = 'running', started_at = coalesce(r.started_at, now()), legs = greatest(r.legs, 1), updated_at = now()
    from automation_runs src left join automations a on a.id = src.automation_id
    where r.id = src.id and r.id = any(${uuidArray(runIds)}::uuid[]) and r.status in ('queued', 'running')
    returning r.id, r.tenant_id, r.automation_id, r.automation_version, r.event, r.trigger_node_id,
      src.status as previous_status, a.status as automation_status,
      exists (select 1 from automation_run_steps s where s.run_id = r.id) as has_steps`);
  const runs: ClaimedRun[] = [];
  const retried = new Set<string>();
  for (const row of rows) {
    const id = String(row.id);
    if (row.previous_status === "running" || row.has_steps) retried.add(id);
    runs.push({
      id,
      tenantId: String(row.tenant_id),
      automationId: String(row.automation_id),
      automationVersion: Number(row.automation_version),
      event: row.event as RunEvent,
      triggerNodeId: String(row.trigger_node_id),
      automationStatus: (row.automation_status as string | null) ?? null,
    });
  }
  return { runs, retried };
}

export interface PlannedRun {
  leg: LegContext;
  plan: PlannedStep[];
}

/** A run can take the batched path when every action it will take is a database effect. */
export function batchable(plan: PlannedStep[]): boolean {
  return plan.every(
    (s) => s.kind === "condition" || (s.kind === "action" && executorFor(s.nodeType)?.effect === "database"),
  );
}

interface PendingAction {
  run: PlannedRun;
  step: Extract<PlannedStep, { kind: "action" }>;
  position: number;
  executor: DatabaseExecutor<never, Record<string, unknown>>;
  ctx: ActionContext;
  request: Record<string, unknown>;
}

/** Splits items so that no group touches the same record twice (an UPDATE … FROM cannot). */
function distinctRecords(items: PendingAction[]): PendingAction[][] {
  const groups: { keys: Set<string>; items: PendingAction[] }[] = [];
  for (const item of items) {
    const key = item.ctx.entity
      ? `${item.ctx.tenantId}|${item.ctx.entity.domain}|${item.ctx.entity.id}`
      : `run:${item.run.leg.runId}`;
    let group = groups.find((g) => !g.keys.has(key));
    if (!group) groups.push((group = { keys: new Set(), items: [] }));
    group.keys.add(key);
    group.items.push(item);
  }
  return groups.map((g) => g.items);
}

/**
 * Executes the first legs of many runs whose actions all stay inside our database, in ONE
 * transaction: each action type's effect for all runs in a few statements, then every delivery
 * row, every step row and every run's outcome. Actions run in plan order within a run (round k
 * is every run's k-th action). An ActionError fails only its step; anything else rolls the whole
 * batch back and the caller retries each run alone.
 */
export async function executeTogether(
  runs: PlannedRun[],
  options: { completeWaitSteps?: string[] } = {},
): Promise<void> {
  const startedAt = new Date();
  await getDb().transaction(async (tx: Tx) => {
    // Resumed legs: the waits they start from are done.
    if (options.completeWaitSteps?.length) {
      await tx.execute(sql`
        update automation_run_steps set status = 'success', finished_at = now(),
          duration_ms = (extract(epoch from now() - started_at) * 1000)::int
        where id in (select value::uuid from json_array_elements_text(${JSON.stringify(options.completeWaitSteps)}::json))`);
    }
    const steps: StepRecord[] = [];
    const deliveries: (typeof actionDeliveries.$inferInsert)[] = [];
    const rounds: PendingAction[][] = [];
    for (const run of runs) {
      let k = 0;
      for (const [position, step] of run.plan.entries()) {
        const base = {
          tenantId: run.leg.tenantId,
          runId: run.leg.runId,
          nodeId: step.nodeId,
          nodeType: step.nodeType,
          leg: run.leg.leg,
          startedAt,
        };
        if (step.kind === "condition") {
          steps.push({
            ...base,
            position,
            category: "condition",
            status: "success",
            output: { result: step.result },
          });
          continue;
        }
        if (step.kind !== "action") continue;
        const definition = registry.get(step.nodeType)!;
        const parsed = definition.params.safeParse(step.params);
        const ctx = actionContext(run.leg, step.nodeId);
        const executor = executorFor(step.nodeType) as DatabaseExecutor<never, Record<string, unknown>>;
        let request: Record<string, unknown> | null = null;
        let failure: string | null = parsed.success
          ? null
          : `${definition.label}: the step's settings are invalid.`;
        if (parsed.success) {
          try {
            request = executor.prepare(parsed.data as never, ctx);
          } catch (error) {
            failure = error instanceof Error ? error.message : String(error);
          }
        }
        if (failure || !request) {
          steps.push({ ...base, position, category: "action", status: "failed", error: failure });
          deliveries.push({
            ...base,
            dedupeKey: ctx.dedupeKey,
            status: "failed",
            request: {},
            error: failure,
            completedAt: startedAt,
          });
          continue;
        }
        (rounds[k++] ??= []).push({ run, step, position, executor, ctx, request });
      }
    }
    for (const round of rounds) {
      const byType = new Map<string, PendingAction[]>();
      for (const item of round)
        byType.set(item.step.nodeType, [...(byType.get(item.step.nodeType) ?? []), item]);
      for (const items of byType.values()) {
        for (const group of distinctRecords(items)) {
          const executor = group[0]!.executor;
          const results: (ActionOutput | ActionError)[] = executor.runMany
            ? await executor.runMany(
                tx,
                group.map(({ request, ctx }) => ({ request: request as never, ctx })),
              )
            : await runEach(tx, group);
          group.forEach((item, i) => {
            const result = results[i]!;
            const failed = result instanceof ActionError;
            const base = {
              tenantId: item.run.leg.tenantId,
              runId: item.run.leg.runId,
              nodeId: item.step.nodeId,
              nodeType: item.step.nodeType,
              leg: item.run.leg.leg,
            };
            if (!failed) item.run.leg.steps[item.step.nodeId] = result;
            steps.push({
              ...base,
              position: item.position,
              category: "action",
              status: failed ? "failed" : "success",
              input: redact(item.request),
              output: failed ? result.output : result,
              error: failed ? result.message : null,
              startedAt,
            });
            deliveries.push({
              ...base,
              dedupeKey: item.ctx.dedupeKey,
              status: failed ? "failed" : "delivered",
              request: item.request,
              response: failed ? result.output : result,
              error: failed ? result.message : null,
              completedAt: new Date(),
            });
          });
        }
      }
    }
    if (deliveries.length > 0) {
      const inserted = await tx
        .insert(actionDeliveries)
        .values(deliveries)
        .onConflictDoNothing()
        .returning({ id: actionDeliveries.id });
      // Another attempt delivered one of these meanwhile: undo the whole batch; the one-run path replays.
      if (inserted.length !== deliveries.length) throw new Error("A delivery of this batch already exists.");
    }
    await recordSteps(tx, steps);
    await settleRuns(
      tx,
      runs.map((r) => r.leg.runId),
    );
  });
}

async function runEach(tx: Tx, items: PendingAction[]): Promise<(ActionOutput | ActionError)[]> {
  const results: (ActionOutput | ActionError)[] = [];
  for (const item of items) {
    try {
      results.push(await item.executor.run(tx, item.request as never, item.ctx));
    } catch (error) {
      if (!(error instanceof ActionError)) throw error;
      results.push(error);
    }
  }
  return results;
}

/**
 * The first legs of many runs at once (the batched `automation_execute` path): one statement to
 * claim them, one to load their entities, one transaction for every run whose effects stay in our
 * database. Returns the runs that need the careful one-run path (`executeRun`): an earlier attempt
 * to replay, an HTTP call, a wait, a missing record. Same outcomes as `executeRun` for each id.
 */
export async function executeRunBatch(runIds: string[]): Promise<{ alone: string[] }> {
  if (runIds.length === 0) return { alone: [] };
  const { runs, retried } = await claimRuns(runIds);
  const alone: string[] = [...retried];
  const cancelled: { id: string; reason: string }[] = [];
  const together: PlannedRun[] = [];
  const fresh = runs.filter((r) => !retried.has(r.id));
  const entitiesByRun = await loadRunEntities(fresh, { pinStatus: true });
  for (const run of fresh) {
    if (run.automationStatus !== "active") {
      const status = run.automationStatus as keyof typeof NOT_ACTIVE_REASON | null;
      cancelled.push({
        id: run.id,
        reason: NOT_ACTIVE_REASON[status && status in NOT_ACTIVE_REASON ? status : "deleted"],
      });
      continue;
    }
    const entity = entitiesByRun.get(run.id) ?? null;
    if (!entity && isDomain(run.event.domain) && run.event.entityId) {
      alone.push(run.id); // the one-run path words the not-found failure
      continue;
    }
    const version = await loadVersion(getDb(), run.automationId, run.automationVersion);
    if (!version) {
      alone.push(run.id);
      continue;
    }
    const leg: LegContext = {
      tenantId: run.tenantId,
      runId: run.id,
      automationId: run.automationId,
      automationName: version.name,
      automationVersion: version.version,
      leg: 1,
      event: run.event,
      entity,
      steps: {},
      now: new Date(),
    };
    let plan: PlannedStep[];
    try {
      plan = planFrom(version.graph, run.triggerNodeId, registry, evaluatorFor(leg));
    } catch {
      alone.push(run.id);
      continue;
    }
    if (batchable(plan)) together.push({ leg, plan });
    else alone.push(run.id);
  }
  if (cancelled.length > 0) {
    await getDb().execute(sql`
      update automation_runs r set status = 'cancelled', reason = v.reason, finished_at = now(), updated_at = now(),
        duration_ms = ${RUN_DURATION_MS}
      from json_to_recordset(${JSON.stringify(cancelled)}::json) as v(id uuid, reason text)
      where r.id = v.id and r.status = 'running'`);
  }
  if (together.length > 0) {
    try {
      await batchTransactionLimit(() => executeTogether(together));
    } catch (error) {
      console.warn(`Batched execution of ${together.length} runs failed; running them one by one.`, error);
      alone.push(...together.map((r) => r.leg.runId));
    }
  }
  return { alone };
}
