import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import type { TouchKind } from "@/lib/db/schema";

/**
 * A touch as the engine writes it (lib/db/schema/performance.ts): a customer-facing step that
 * delivered to a customer (`message`), a held-out customer's run (`holdout`), or a treated
 * customer's entry into an automation with a holdout (`entered`).
 */
export interface NewTouch {
  tenantId: string;
  kind: TouchKind;
  customerId: string | null;
  /** Lower-case. */
  email: string | null;
  automationId: string;
  automationVersion: number;
  runId: string;
  nodeId: string;
  leg: number;
  branch: string | null;
  /** When it happened (ISO); the engine leaves it to the database's clock. Tests spread touches over days with it. */
  at?: string;
}

/** The customer a touch names, for its once-only key and the holdout's per-customer counts. */
export function recipientOf(touch: Pick<NewTouch, "customerId" | "email">): string {
  return touch.email ?? `c:${touch.customerId}`;
}

/**
 * Writes touches in the caller's transaction (the one that records their steps), once: a replay
 * writes the same (run, node, leg, recipient) and adds nothing. One statement for a phase's touches;
 * its statement trigger (`automation_touches_rollup`, drizzle/0036_reach_rollups.sql) adds them to
 * the Performance tab's rollups in the same statement.
 */
export async function insertTouches(tx: DbOrTx, touches: NewTouch[]): Promise<void> {
  const rows = touches
    .filter((t) => t.customerId !== null || t.email !== null)
    .map((t) => ({
      tenant_id: t.tenantId,
      kind: t.kind,
      customer_id: t.customerId,
      email: t.email,
      recipient: recipientOf(t),
      automation_id: t.automationId,
      automation_version: t.automationVersion,
      run_id: t.runId,
      node_id: t.nodeId,
      leg: t.leg,
      branch: t.branch,
      at: t.at ?? null,
    }));
  if (rows.length === 0) return;
  await tx.execute(sql`
    insert into automation_touches (tenant_id, kind, customer_id, email, recipient, automation_id,
      automation_version, run_id, node_id, leg, branch, at)
    select tenant_id, kind, customer_id, email, recipient, automation_id, automation_version, run_id,
      node_id, leg, branch, coalesce(at, now())
    from json_to_recordset(${JSON.stringify(rows)}::json) as v(tenant_id uuid, kind text, customer_id text,
      email text, recipient text, automation_id uuid, automation_version int, run_id uuid, node_id text,
      leg int, branch text, at timestamptz)
    on conflict (run_id, node_id, leg, recipient) do nothing`);
}
