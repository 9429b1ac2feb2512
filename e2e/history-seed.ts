import fs from "node:fs";
import path from "node:path";
import postgres from "postgres";

/*
 * Run history for the insights specs, written straight into the e2e database (as bench/history.ts
 * and tests/insights/insights.test.ts do): days of past runs cannot be made through the API, which only
 * starts runs now. The automation itself is created and published through the API first; this adds
 * its runs, their steps and, for the waiting ones, their pending waits.
 */

/** The e2e cluster the launcher started (`TILLFLOW_DATA_DIR=.data/e2e`; lib/db/embedded.ts port file). */
function e2eDatabaseUrl(): string {
  const portFile = path.join(process.cwd(), ".data/e2e/pg.json");
  const { port } = JSON.parse(fs.readFileSync(portFile, "utf8")) as { port: number };
  return `postgres://postgres:tillflow@127.0.0.1:${port}/tillflow`;
}

export type SeedStatus = "succeeded" | "failed" | "partial" | "waiting" | "cancelled";

/** One run: its status, how long ago it started, and the steps it took as [node id, type, leg, status]. */
export interface SeedRun {
  status: SeedStatus;
  agoMinutes: number;
  steps: [string, string, number, string][];
  /** For a waiting run: the node it waits at, and in how many minutes it resumes. */
  waitAt?: { nodeId: string; nodeType: string; inMinutes: number };
}

/** Inserts the runs of one published automation (version 1); returns their ids, in order. */
export async function seedHistory(automationId: string, runs: SeedRun[]): Promise<string[]> {
  const sql = postgres(e2eDatabaseUrl(), { max: 1, onnotice: () => {} });
  try {
    const [automation] = await sql<{ tenant_id: string }[]>`
      select tenant_id from automations where id = ${automationId}`;
    if (!automation) throw new Error(`No automation ${automationId} in the e2e database.`);
    const tenant = automation.tenant_id;
    const ids: string[] = [];
    for (const [i, r] of runs.entries()) {
      const at = new Date(Date.now() - r.agoMinutes * 60_000);
      const finished = r.status === "waiting" ? null : new Date(at.getTime() + (1 + (i % 7)) * 900);
      const event = {
        id: `seed-${automationId}-${i}`,
        type: "shipment.delivered",
        domain: "shipment",
        entityId: null,
        entityStatus: null,
        payload: {},
        occurredAt: at.toISOString(),
      };
      const [row] = await sql<{ id: string }[]>`
        insert into automation_runs (tenant_id, automation_id, automation_version, status, event_id, trigger_node_id,
          event, domain, legs, started_at, finished_at, duration_ms, error, resume_at, created_at, updated_at)
        values (${tenant}, ${automationId}, 1, ${r.status}, ${event.id}, 'delivered', ${sql.json(event)}, 'shipment',
          ${r.steps.reduce((legs, s) => Math.max(legs, s[2]), 1)}, ${at}, ${finished},
          ${finished ? finished.getTime() - at.getTime() : null},
          ${r.status === "failed" ? "Add note: the note was refused (seeded failure)." : null},
          ${r.waitAt ? new Date(Date.now() + r.waitAt.inMinutes * 60_000) : null}, ${at}, ${at})
        returning id`;
      const runId = row!.id;
      ids.push(runId);
      for (const [position, [nodeId, nodeType, leg, status]] of r.steps.entries()) {
        await sql`
          insert into automation_run_steps (tenant_id, run_id, node_id, node_type, category, status, leg, position,
            started_at, finished_at, duration_ms)
          values (${tenant}, ${runId}, ${nodeId}, ${nodeType}, ${nodeType.includes(".control.") ? "wait" : "action"},
            ${status}, ${leg}, ${position}, ${at}, ${at}, 5)`;
      }
      if (r.waitAt) {
        await sql`
          insert into automation_run_waits (tenant_id, run_id, automation_id, automation_version, node_id, node_type,
            leg, event, kind, status, resume_at)
          values (${tenant}, ${runId}, ${automationId}, 1, ${r.waitAt.nodeId}, ${r.waitAt.nodeType}, 1,
            ${sql.json(event)}, 'delay', 'pending', ${new Date(Date.now() + r.waitAt.inMinutes * 60_000)})`;
      }
    }
    return ids;
  } finally {
    await sql.end();
  }
}
