import crypto from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { automationRunWaits, type RunEvent } from "@/lib/db/schema";
import { enqueueJobs } from "@/lib/jobs";
import { DURATION_PATTERN, parseDuration } from "../duration";
import { ActionError, type DatabaseExecutor } from "../executor";
import { LATER_MAX_MS, LATER_MIN_MS } from "./later";

/** SPEC §2: at most this many later steps waiting per automation, asked for by one run, in one chain. */
export const LATER_LIMITS = { perAutomation: 1_000, perRun: 20, chain: 10 } as const;

interface LaterParams {
  when: string;
  step: string;
  key?: string;
  then: Record<string, unknown>;
}

interface LaterRequest extends Record<string, unknown> {
  due: string;
  step: string;
  key: string | null;
  then: Record<string, unknown>;
}

function chainOf(event: RunEvent): number {
  return event.type === "later" && typeof event.payload.chain === "number" ? event.payload.chain : 0;
}

/**
 * Schedules a `later` wait: a row plus a delayed `automation_later` job, in the action's
 * transaction. The run that asked goes on (a later is not a pause); when it comes due, a new run
 * starts at the Later trigger of the same step. A key replaces the later waiting under it.
 */
export const laterExecutor: DatabaseExecutor<LaterParams, LaterRequest> = {
  effect: "database",
  prepare(params, ctx) {
    const due = DURATION_PATTERN.test(params.when)
      ? new Date(ctx.now.getTime() + parseDuration(params.when))
      : new Date(params.when);
    const ahead = due.getTime() - ctx.now.getTime();
    if (ahead < LATER_MIN_MS || ahead > LATER_MAX_MS) {
      throw new ActionError(
        `A later step must be at least 1 minute and at most 90 days ahead; '${params.when}' is not.`,
      );
    }
    const key = params.key ? ctx.render(params.key).trim() : "";
    return { due: due.toISOString(), step: params.step, key: key || null, then: params.then };
  },
  async run(tx, request, ctx) {
    const chain = chainOf(ctx.event) + 1;
    if (chain > LATER_LIMITS.chain) {
      throw new ActionError(
        `A chain of later steps can be at most ${LATER_LIMITS.chain} runs long; this one would be ${chain}.`,
      );
    }
    const [counts] = await tx.execute<{ waiting: number; asked: number }>(sql`
      select count(*) filter (where automation_id = ${ctx.automationId} and status = 'pending')::int as waiting,
             count(*) filter (where run_id = ${ctx.runId})::int as asked
      from automation_run_waits where kind = 'later' and (automation_id = ${ctx.automationId} or run_id = ${ctx.runId})`);
    if (counts!.asked >= LATER_LIMITS.perRun) {
      throw new ActionError(`One run can ask for at most ${LATER_LIMITS.perRun} later steps.`);
    }
    let replaced: string | null = null;
    if (request.key) {
      const [old] = await tx
        .update(automationRunWaits)
        .set({
          status: "cancelled",
          reason: "Replaced by a newer later step with the same key.",
          resolvedAt: new Date(),
        })
        .where(
          and(
            eq(automationRunWaits.automationId, ctx.automationId),
            eq(automationRunWaits.kind, "later"),
            eq(automationRunWaits.status, "pending"),
            eq(automationRunWaits.key, request.key),
          ),
        )
        .returning({ id: automationRunWaits.id });
      if (old) {
        replaced = old.id;
        await tx.execute(sql`select graphile_worker.remove_job(${old.id})`);
      }
    }
    if (!replaced && counts!.waiting >= LATER_LIMITS.perAutomation) {
      throw new ActionError(
        `This automation already has ${LATER_LIMITS.perAutomation} later steps waiting; cancel some first.`,
      );
    }
    const id = crypto.randomUUID();
    await tx.insert(automationRunWaits).values({
      id,
      tenantId: ctx.tenantId,
      runId: ctx.runId,
      automationId: ctx.automationId,
      automationVersion: ctx.automationVersion,
      nodeId: ctx.nodeId,
      nodeType: "auto.action.later",
      stepId: null,
      leg: ctx.leg,
      key: request.key,
      event: {
        id: `later_${id}`,
        type: "later",
        domain: "later",
        entityId: null,
        entityStatus: null,
        payload: {
          step: request.step,
          then: request.then,
          due: request.due,
          key: request.key,
          fromRunId: ctx.runId,
          chain,
        },
        occurredAt: ctx.now.toISOString(),
      },
      kind: "later",
      resumeAt: new Date(request.due),
    });
    await enqueueJobs(tx, [
      { task: "automation_later", payload: { waitId: id }, runAt: new Date(request.due), jobKey: id },
    ]);
    return { waitId: id, step: request.step, due: request.due, key: request.key, replaced };
  },
};
