import crypto from "node:crypto";
import { z } from "zod";
import { recordAudit } from "@/lib/audit";
import { actorLabel, type Caller } from "@/lib/identity/caller";
import { getDb } from "@/lib/db/client";
import { AppError, parseOrThrow } from "@/lib/errors";
import { startLaterRun } from "@/lib/automations/engine/later";
import { laterTrigger } from "@/lib/automations/nodes/triggers/later-steps";
import { laterSteps, thenProblem } from "./later-then";
import { getRun, type RunDetail } from "./detail";
import { automationSubject, liveGraph, loadRow } from "@/lib/automations/lifecycle/read";

/**
 * "Try it later…" (seed 003): runs an automation's Later trigger for a step NOW, as if a later
 * step had come due — a real run on the active version, started through the same path as a due
 * later (`startLaterRun`), with the same event: `type: "later"`, payload `{ step, then, due, key,
 * fromRunId, chain }` (here `due` is now, `key` and `fromRunId` null, `chain` 1 as for a later a
 * run asked for, and `tried` names who tried it).
 */
export const tryLaterInput = z.strictObject({
  step: z.string().trim().min(1, "name the later step to run").max(100),
  then: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("The JSON object the step is handed back as event.then (at most 16 KB)."),
});

export type TryLaterInput = z.input<typeof tryLaterInput>;

/** `then` must be a JSON object of at most 16 KB, as the Later action's (a 400 otherwise). */
function assertThen(body: unknown): void {
  if (typeof body !== "object" || body === null || !("then" in body)) return;
  const then = (body as { then: unknown }).then;
  const problem = then === undefined ? null : thenProblem(then);
  if (problem) throw new AppError(400, "bad_request", problem);
}

const stepList = (steps: string[]) => steps.map((s) => `'${s}'`).join(", ");

/** Starts the run and returns it (as `GET /api/v1/runs/:id` shows it). Editors and up. */
export async function tryLater(
  caller: Caller,
  automationId: string,
  body: unknown,
): Promise<{ run: RunDetail }> {
  assertThen(body);
  const input = parseOrThrow(tryLaterInput, body, "The later step to try is invalid");
  const tenantId = caller.tenant.id;
  const runId = await getDb().transaction(async (tx) => {
    const row = await loadRow(tx, tenantId, automationId);
    const graph = liveGraph(row, "try a later step");
    const steps = laterSteps(graph);
    const trigger = laterTrigger(graph, input.step);
    if (!trigger) {
      throw new AppError(
        422,
        "invalid",
        steps.length === 0
          ? `'${row.name}' has no Later trigger, so there is no later step to try.`
          : `'${row.name}' has no Later trigger for step '${input.step}'; its later steps are ${stepList(steps)}.`,
        [{ path: "step", message: `step: must be one of ${stepList(steps) || "(none)"}` }],
      );
    }
    const id = crypto.randomUUID();
    const [run] = await startLaterRun(
      tx,
      tenantId,
      { automationId: row.id, triggerNodeId: trigger.id },
      {
        id: `later_try_${id}`,
        payload: {
          step: input.step,
          then: input.then ?? {},
          due: new Date().toISOString(),
          key: null,
          fromRunId: null,
          chain: 1,
          tried: actorLabel(caller.actor),
        },
      },
    );
    if (!run) {
      // The listeners did not include it: the automation changed between the read and the start.
      throw new AppError(409, "conflict", "The automation changed while the run was starting; try again.");
    }
    await recordAudit(tx, caller, {
      action: "automation.later_tried",
      ...automationSubject(row),
      detail: { name: row.name, version: row.version, step: input.step, runId: run.id },
    });
    return run.id;
  });
  return { run: await getRun(tenantId, runId) };
}
