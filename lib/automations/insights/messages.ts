import { sql } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { notFound, parseOrThrow } from "@/lib/errors";
import { windowOf } from "./window";

/**
 * What an automation's customer-facing steps did with their messages in a window (issue 51):
 * sent, or skipped because the customer does not accept marketing or unsubscribed. Read from the
 * run steps by the runs' automation index, one statement. Insights, `GET /api/v1/automations/{id}/messages`,
 * the MCP tool `automation_messages` and `tillflow automations messages` all show this.
 */
export const messageCountsQuery = z.object({
  days: z.coerce
    .number()
    .int("must be 7 or 30")
    .refine((d) => d === 7 || d === 30, "must be 7 or 30")
    .default(7),
});

export interface MessageCounts {
  days: 7 | 30;
  /** Emails written to the outbox, and requests marked "reaches the customer" that were sent. */
  sent: number;
  /** Marketing messages skipped: the customer does not accept marketing. */
  skippedConsent: number;
  /** Marketing messages skipped: the customer unsubscribed. */
  skippedUnsubscribed: number;
  /** Marketing messages that waited for the customer's quiet hours to end (each counted once). */
  waitedQuietHours: number;
  /** Marketing messages deferred by the shop's cap or a message of higher priority (each counted once). */
  deferred: number;
  /** Deferred messages skipped because they waited past the automation's `expireAfterHours`. */
  expired: number;
  /** Deferred messages skipped because, when their turn came, a condition on their path no longer held. */
  skippedConditions: number;
}

export async function messageCounts(
  tenantId: string,
  automationId: string,
  query: unknown = {},
): Promise<MessageCounts> {
  const q = parseOrThrow(messageCountsQuery, query, "The messages query is invalid");
  const [found] = await getDb().execute<{ id: string }>(
    sql`select id from automations where tenant_id = ${tenantId}::uuid and id = ${automationId}::uuid`,
  );
  if (!found) throw notFound("That automation");
  const window = await windowOf(tenantId, q.days, new Date());
  const [row] = await getDb().execute<{
    sent: number;
    consent: number;
    unsubscribed: number;
    quiet: number;
    deferred: number;
    expired: number;
    conditions: number;
  }>(sql`
    select
      count(*) filter (where s.category = 'action' and s.status = 'success' and (s.node_type = 'auto.action.send_email'
        or (s.node_type = 'auto.action.http_request' and s.input ? 'marketingFor')))::int as sent,
      count(*) filter (where s.category = 'action' and s.status = 'skipped' and s.output->>'skippedFor' = 'consent')::int as consent,
      count(*) filter (where s.category = 'action' and s.status = 'skipped' and s.output->>'skippedFor' = 'unsubscribed')::int as unsubscribed,
      count(distinct (s.run_id, s.node_id)) filter (where s.category = 'wait' and s.output->>'deferredFor' = 'quiet')::int as quiet,
      count(distinct (s.run_id, s.node_id)) filter (where s.category = 'wait' and s.output->>'deferredFor' in ('cap', 'yield'))::int as deferred,
      count(*) filter (where s.category = 'action' and s.status = 'skipped' and s.output->>'skippedFor' = 'expired')::int as expired,
      count(*) filter (where s.category = 'action' and s.status = 'skipped' and s.output->>'skippedFor' = 'conditions')::int as conditions
    from automation_runs r
    join automation_run_steps s on s.run_id = r.id and s.tenant_id = r.tenant_id
    where r.tenant_id = ${tenantId}::uuid and r.automation_id = ${automationId}::uuid
      and r.created_at >= ${window.from.toISOString()}::timestamptz and s.category in ('action', 'wait')
      and not coalesce(s.output ? 'retry', false)`);
  return {
    days: q.days as 7 | 30,
    sent: row?.sent ?? 0,
    skippedConsent: row?.consent ?? 0,
    skippedUnsubscribed: row?.unsubscribed ?? 0,
    waitedQuietHours: row?.quiet ?? 0,
    deferred: row?.deferred ?? 0,
    expired: row?.expired ?? 0,
    skippedConditions: row?.conditions ?? 0,
  };
}
