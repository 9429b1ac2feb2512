import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import type { RunEvent } from "@/lib/db/schema";
import { isDomain } from "@/lib/entities/domains";
import { registry } from "@/lib/automations/nodes/registry";
import { loadVersion } from "@/lib/automations/store/versions";
import { evaluatorFor } from "./evaluate";
import { batchTransactionLimit } from "./limits";
import { loadRunEntities } from "./entity";
import { batchable, executeTogether, uuidArray, type PlannedRun } from "./execute-batch";
import type { LegContext } from "./execute-shared";
import { planFrom, type PlannedStep } from "./interpreter";

interface ClaimedWait {
  id: string;
  tenantId: string;
  runId: string;
  automationId: string;
  automationVersion: number;
  nodeId: string;
  stepId: string;
  resumeLeg: number;
  event: RunEvent;
  automationStatus: string | null;
  currentVersion: number | null;
}

/**
 * Claims many due waits in one statement: at most one per run (a second wait of the same run,
 * due at the same moment, is claimed on its own so each leg gets its own number).
 */
async function claimWaits(waitIds: string[]): Promise<ClaimedWait[]> {
  const rows = await getDb().execute<Record<string, unknown>>(sql`
    with candidates as (
      select distinct on (run_id) id from automation_run_waits
      where id = any(${uuidArray(waitIds)}::uuid[]) and status = 'pending' and kind <> 'later'
      order by run_id, resume_at, id
    ), claimed as (
      update automation_run_waits w set status = 'resumed', resolved_at = now(), resume_leg = r.legs + 1
      from automation_runs r
      where r.id = w.run_id and w.id in (select id from candidates) and w.status = 'pending'
      returning w.id, w.tenant_id, w.run_id, w.automation_id, w.automation_version, w.node_id, w.step_id,
        w.resume_leg, w.event
    ), runs as (
      update automation_runs r set legs = c.resume_leg, status = 'running', updated_at = now()
      from claimed c where r.id = c.run_id
      returning r.id
    )
    select c.*, a.status as automation_status, a.version as current_version
    from claimed c join runs on runs.id = c.run_id left join automations a on a.id = c.automation_id`);
  return rows.map((row) => ({
    id: String(row.id),
    tenantId: String(row.tenant_id),
    runId: String(row.run_id),
    automationId: String(row.automation_id),
    automationVersion: Number(row.automation_version),
    nodeId: String(row.node_id),
    stepId: String(row.step_id),
    resumeLeg: Number(row.resume_leg),
    event: row.event as RunEvent,
    automationStatus: (row.automation_status as string | null) ?? null,
    currentVersion: row.current_version === null ? null : Number(row.current_version),
  }));
}

/**
 * Resumes many due waits at once (the batched `automation_resume` path): one statement claims
 * them, one loads their entities fresh (no status pin), and one transaction runs every leg whose
 * automation is on and unchanged and whose next steps stay inside our database. Every other
 * wait — claimed or not — is handed back to `resumeWait`, which applies the wake table, replays
 * a claimed-but-unfinished leg, and knows every edge. Same outcomes as `resumeWait` for each id.
 */
export async function executeResumeBatch(waitIds: string[]): Promise<{ alone: string[] }> {
  if (waitIds.length === 0) return { alone: [] };
  const claimed = await claimWaits(waitIds);
  const claimedIds = new Set(claimed.map((w) => w.id));
  const alone = waitIds.filter((id) => !claimedIds.has(id));
  const simple = claimed.filter(
    (w) => w.automationStatus === "active" && w.currentVersion === w.automationVersion,
  );
  alone.push(...claimed.filter((w) => !simple.includes(w)).map((w) => w.id));

  const entities = await loadRunEntities(
    simple.map((w) => ({ id: w.runId, tenantId: w.tenantId, event: w.event })),
    { pinStatus: false },
  );
  const together: PlannedRun[] = [];
  const waitSteps: string[] = [];
  for (const wait of simple) {
    const entity = entities.get(wait.runId) ?? null;
    const version = await loadVersion(getDb(), wait.automationId, wait.automationVersion);
    if (!version || (!entity && isDomain(wait.event.domain) && wait.event.entityId)) {
      alone.push(wait.id);
      continue;
    }
    const leg: LegContext = {
      tenantId: wait.tenantId,
      runId: wait.runId,
      automationId: wait.automationId,
      automationName: version.name,
      automationVersion: version.version,
      leg: wait.resumeLeg,
      event: wait.event,
      entity,
      steps: {},
      now: new Date(),
    };
    let plan: PlannedStep[];
    try {
      plan = planFrom(version.graph, wait.nodeId, registry, evaluatorFor(leg));
    } catch {
      alone.push(wait.id);
      continue;
    }
    if (!batchable(plan)) {
      alone.push(wait.id);
      continue;
    }
    together.push({ leg, plan });
    waitSteps.push(wait.stepId);
  }
  if (together.length > 0) {
    try {
      await batchTransactionLimit(() => executeTogether(together, { completeWaitSteps: waitSteps }));
    } catch (error) {
      console.warn(`Batched resume of ${together.length} waits failed; resuming them one by one.`, error);
      alone.push(...simple.filter((w) => together.some((r) => r.leg.runId === w.runId)).map((w) => w.id));
    }
  }
  return { alone };
}
