import { and, eq, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { automations, automationVersions } from "@/lib/db/schema";
import type { Graph } from "@/lib/automations/graph/schema";
import { syncSchedules } from "@/lib/automations/lifecycle/schedule-sync";

/**
 * Built-in automations (seed 002): the platform's own periodic jobs, as ordinary per-shop
 * automations marked with a `builtin_slug`. Each is a schedule trigger followed by one platform
 * job node (`auto.action.mark_carts_abandoned`, …), so it is shown, edited, versioned, paused and
 * run by exactly the same machinery as a merchant's flow. What is special about them:
 *
 * - seeded by slug for every shop, and re-created by the heartbeat if one is missing;
 * - "Reset to built-in" publishes the definition below as a new version (history stays);
 * - they can be disabled (paused) but never archived (a database check says so too), and their
 *   slug never changes (nothing writes it after the insert).
 */
export interface BuiltinDefinition {
  slug: string;
  name: string;
  description: string;
  graph(timezone: string): Graph;
}

function scheduled(cron: string, job: { type: string; params: Record<string, unknown> }) {
  return (timezone: string): Graph => ({
    nodes: [
      { id: "schedule", type: "auto.trigger.schedule", params: { cron, timezone }, position: { x: 0, y: 0 } },
      { id: "job", type: job.type, params: job.params, position: { x: 0, y: 160 } },
    ],
    edges: [{ id: "schedule-job", source: "schedule", sourceHandle: "out", target: "job" }],
  });
}

export const BUILTINS: readonly BuiltinDefinition[] = [
  {
    slug: "mark-carts-abandoned",
    name: "Mark carts abandoned",
    description:
      "Built-in: every 15 minutes, open carts idle for an hour become abandoned, which starts your 'Cart abandoned' flows.",
    graph: scheduled("*/15 * * * *", {
      type: "auto.action.mark_carts_abandoned",
      params: { idleMinutes: 60 },
    }),
  },
  {
    slug: "mark-invoices-overdue",
    name: "Mark invoices overdue",
    description:
      "Built-in: every hour, sent invoices past their due date become overdue, which starts your 'Invoice overdue' flows.",
    graph: scheduled("0 * * * *", { type: "auto.action.mark_invoices_overdue", params: {} }),
  },
  {
    slug: "purge-run-history",
    name: "Purge run history",
    description: "Built-in: every night at 03:30, finished runs older than 90 days are deleted.",
    graph: scheduled("30 3 * * *", { type: "auto.action.purge_run_history", params: { retentionDays: 90 } }),
  },
];

export function builtinBySlug(slug: string): BuiltinDefinition | undefined {
  return BUILTINS.find((b) => b.slug === slug);
}

export const BUILTIN_AUTHOR = "Tillflow (built-in)";

/**
 * Creates every missing built-in (by slug) for every shop, or for one shop: published as version
 * 1 and active, with its schedule. Cheap when nothing is missing (one anti-join on an index), so
 * the heartbeat calls it every minute. Two callers at once cannot create one twice: the slug is
 * unique per shop. Returns how many were created.
 */
export async function ensureBuiltins(tenantId?: string): Promise<number> {
  const slugs = BUILTINS.map((b) => b.slug);
  const missing = await getDb().execute<{ tenant_id: string; timezone: string; slug: string }>(sql`
    select t.id as tenant_id, t.timezone, s.slug
    from tenants t cross join unnest(${`{${slugs.join(",")}}`}::text[]) as s(slug)
    where ${tenantId ? sql`t.id = ${tenantId}` : sql`true`}
      and not exists (select 1 from automations a where a.tenant_id = t.id and a.builtin_slug = s.slug)
    limit 500`);
  let created = 0;
  for (const row of missing) {
    const builtin = builtinBySlug(row.slug);
    if (!builtin) continue;
    const graph = builtin.graph(row.timezone);
    await getDb().transaction(async (tx) => {
      const [automation] = await tx
        .insert(automations)
        .values({
          tenantId: row.tenant_id,
          name: builtin.name,
          description: builtin.description,
          status: "active",
          version: 1,
          draftGraph: graph,
          activeGraph: graph,
          triggerEvents: ["schedule.fired"],
          builtinSlug: builtin.slug,
          activatedAt: new Date(),
          createdBy: BUILTIN_AUTHOR,
        })
        .onConflictDoNothing()
        .returning();
      if (!automation) return;
      await tx.insert(automationVersions).values({
        automationId: automation.id,
        version: 1,
        tenantId: automation.tenantId,
        name: builtin.name,
        graph,
        inFlightPolicy: automation.inFlightPolicy,
        note: "The built-in definition.",
        author: BUILTIN_AUTHOR,
      });
      await syncSchedules(tx, automation);
      created += 1;
    });
  }
  return created;
}

/** A shop's built-in automation by slug (tests and the seed use it). */
export async function builtinAutomation(tenantId: string, slug: string) {
  const [row] = await getDb()
    .select()
    .from(automations)
    .where(and(eq(automations.tenantId, tenantId), eq(automations.builtinSlug, slug)));
  return row ?? null;
}
