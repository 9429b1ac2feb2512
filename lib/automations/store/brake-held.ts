import { sql, type SQL } from "drizzle-orm";

/**
 * True for a wait (`alias`: a row of automation_run_waits) that the shop's emergency brake holds:
 * the brake is on and paused the wait's automation, which is still paused. Such a wait is neither
 * claimed (claim.ts) nor failed as overdue nor given a new job (store/waits.ts) until the brake is
 * released, which gives it its job back (brake.ts).
 */
export function heldByBrake(alias: string): SQL {
  const w = sql.raw(alias);
  return sql`exists (
    select 1 from automation_brakes b join automations a on a.id = ${w}.automation_id
    where b.tenant_id = ${w}.tenant_id and ${w}.automation_id = any(b.automation_ids) and a.status = 'paused')`;
}
