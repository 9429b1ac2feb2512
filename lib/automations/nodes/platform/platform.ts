import { integer, paramsObject } from "../params";
import type { NodeDefinition } from "../types";
import { text as shown } from "../sentences";

/**
 * Platform jobs: actions that act across the whole shop rather than on the run's record. They are
 * what the built-in automations (`schedules/builtins.ts`) run on a schedule; marked `platform`, they
 * are left out of the palette of merchants' own flows (see `paletteGroups`). Each works through the shop's records in batches, one transaction
 * per batch, and is idempotent by construction (it only touches records still in the state it
 * changes), so a step re-run after a crash carries on where the first attempt stopped.
 */

const HANDLES = { in: true, out: ["out"] } as const;

const markCartsAbandonedParams = paramsObject({
  idleMinutes: integer(5, 43_200).default(60),
});

export const markCartsAbandoned = {
  type: "auto.action.mark_carts_abandoned",
  category: "action",
  label: "Mark carts abandoned",
  description:
    "Marks every open cart that has not changed for a while as abandoned, which starts the shop's 'Cart abandoned' flows.",
  params: markCartsAbandonedParams,
  defaultParams: () => ({ idleMinutes: 60 }),
  handles: HANDLES,
  platform: true,
  summarise: ({ idleMinutes }) => `Mark carts idle for ${idleMinutes} minutes as abandoned`,
  describeDryRun: (request) => [
    `Would mark open carts idle for ${shown(request.idleMinutes)} minutes as abandoned, in batches.`,
  ],
} satisfies NodeDefinition<typeof markCartsAbandonedParams>;

const markInvoicesOverdueParams = paramsObject({});

export const markInvoicesOverdue = {
  type: "auto.action.mark_invoices_overdue",
  category: "action",
  label: "Mark invoices overdue",
  description:
    "Marks every sent invoice whose due date has passed as overdue, which starts the shop's 'Invoice overdue' flows.",
  params: markInvoicesOverdueParams,
  defaultParams: () => ({}),
  handles: HANDLES,
  platform: true,
  summarise: () => "Mark sent invoices past their due date as overdue",
  describeDryRun: () => ["Would mark sent invoices past their due date as overdue, in batches."],
} satisfies NodeDefinition<typeof markInvoicesOverdueParams>;

const purgeRunHistoryParams = paramsObject({
  retentionDays: integer(1, 3_650).default(90),
});

export const purgeRunHistory = {
  type: "auto.action.purge_run_history",
  category: "action",
  label: "Purge run history",
  description:
    "Deletes finished runs (with their steps) older than the retention period, and the schedule fires recorded before it.",
  params: purgeRunHistoryParams,
  defaultParams: () => ({ retentionDays: 90 }),
  handles: HANDLES,
  platform: true,
  summarise: ({ retentionDays }) => `Delete run history older than ${retentionDays} days`,
  describeDryRun: (request) => [
    `Would delete finished runs older than ${shown(request.retentionDays)} days, in batches.`,
  ],
} satisfies NodeDefinition<typeof purgeRunHistoryParams>;
