import { sql } from "drizzle-orm";
import type { Tx } from "@/lib/db/client";
import { enqueueJobs } from "@/lib/jobs";
import type { AlertKind } from "@/lib/db/schema/alerts";

/** One alert about to be kept and sent. */
export interface NewAlert {
  tenantId: string;
  ruleId: string;
  automationId: string | null;
  automationName: string;
  kind: AlertKind;
  message: string;
  count: number;
  runsUrl: string;
  channel: string;
  dedupeKey: string;
  /** ISO, to the microsecond (see `Finding.windowEnd`). */
  windowEnd: string | null;
}

/**
 * Keeps the alerts in `alert_history` and adds an `alert_send` job for each, in the caller's
 * transaction. A dedupe key already there (another evaluation of the same window) is skipped, with
 * no job: each alert is kept, and sent, once. Returns the new rows' ids.
 */
export async function recordAlerts(tx: Tx, alerts: NewAlert[], now: Date): Promise<string[]> {
  if (alerts.length === 0) return [];
  const rows = alerts.map((a) => ({
    t: a.tenantId,
    r: a.ruleId,
    a: a.automationId,
    name: a.automationName,
    kind: a.kind,
    message: a.message,
    n: a.count,
    url: a.runsUrl,
    channel: a.channel,
    key: a.dedupeKey,
    window_end: a.windowEnd,
  }));
  const inserted = await tx.execute<{ id: string }>(sql`
    insert into alert_history (tenant_id, rule_id, automation_id, automation_name, kind, message, count,
      runs_url, channel, dedupe_key, window_end, created_at)
    select v.t, v.r, v.a, v.name, v.kind, v.message, v.n, v.url, v.channel, v.key, v.window_end, ${now.toISOString()}::timestamptz
    from json_to_recordset(${JSON.stringify(rows)}::json) as v(t uuid, r uuid, a uuid, name text, kind text,
      message text, n int, url text, channel text, key text, window_end timestamptz)
    on conflict (dedupe_key) do nothing
    returning id`);
  await enqueueJobs(
    tx,
    inserted.map((row) => ({
      task: "alert_send" as const,
      payload: { alertId: row.id },
      jobKey: `alert:${row.id}`,
    })),
  );
  return inserted.map((row) => row.id);
}
