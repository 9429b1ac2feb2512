import { sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { AppError, isUuid, notFound, parseOrThrow } from "@/lib/errors";
import type { Graph } from "@/lib/automations/graph/schema";
import { HTTP_REQUEST_TYPE } from "@/lib/automations/nodes/http-request/http-request.type";
import { SPLIT_NODE_TYPE } from "@/lib/automations/nodes/split/split-branches";
import { DEFAULT_ATTRIBUTION, type AttributionSettings } from "./settings";
import { compareHoldout, type HoldoutComparison } from "./holdout-stats";
import { decideSplit, type BranchCounts, type SplitReport } from "./split-stats";

/*
 * An automation's Performance report (issue 50; docs/performance-of-automations.md, README.md
 * beside this file): what its touches brought, from the rollups kept when touches and attributed
 * orders were written (`automation_step_days`, `automation_reach_days`). Each statement reads
 * ranges of keys that start with (shop, automation, day); none reads the orders' records or the
 * run history, and attributed orders one by one only for a split's winner or a holdout.
 *
 *   period      shop days `from`–`to` (YYYY-MM-DD, both included; default the last 30 days)
 *   recipients  distinct customers a step of it delivered to in the period
 *   conversions attributed orders recorded in the period
 *   revenue     their amounts in the report's currency, summed by Postgres as `numeric` (exact to
 *               the cent) and handed on as a decimal string; orders in other currencies are
 *               counted in `otherCurrencies`, never added in
 */

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The query's fields (an MCP tool's input extends them); `performanceQuery` checks them together. */
export const performanceFields = z.object({
  from: z.string().regex(DAY, "must be a day such as 2026-11-01").optional(),
  to: z.string().regex(DAY, "must be a day such as 2026-11-30").optional(),
  version: z.coerce
    .number({ error: "must be a version number" })
    .int("must be a version number")
    .min(1, "must be a version number")
    .optional(),
});

export const performanceQuery = performanceFields.refine((q) => !q.from || !q.to || q.from <= q.to, {
  message: "from must not be after to",
  path: ["from"],
});

export interface Money {
  /** Decimal string, exact: "1240.50". */
  amount: string;
  currency: string | null;
}

export interface Row {
  touches: number;
  recipients: number;
  conversions: number;
  /** In the report's currency. */
  revenue: string;
}

export interface PerformanceReport {
  automationId: string;
  from: string;
  to: string;
  days: number;
  timeZone: string;
  version: number | null;
  settings: AttributionSettings;
  /** The currency `revenue` is in: the shop's setting, else the one most attributed orders are in. */
  currency: string | null;
  recipients: number;
  touches: number;
  conversions: number;
  revenue: string;
  /** Revenue ÷ recipients, 2 decimals; null without recipients. */
  revenuePerRecipient: string | null;
  otherCurrencies: { currency: string | null; conversions: number; revenue: string }[];
  byDay: ({ day: string } & Row)[];
  bySteps: ({ nodeId: string; label: string; inGraph: boolean } & Row)[];
  byVersion: ({ version: number } & Row)[];
  /** By split branch (grouped by branch id); the winner's statistics are the split feature's. */
  splits: {
    nodeId: string | null;
    branches: {
      id: string;
      label: string;
      entered: number;
      conversions: number;
      rate: number | null;
      revenue: string;
      revenuePerRecipient: string | null;
      probabilityBest: number | null;
    }[];
    winner: string | null;
    neededMore: number | null;
    /** `decideSplit`'s answer (split-stats.ts): each branch's chance of being the best and the verdict; null for branches of no split in the graph. */
    stats: SplitReport | null;
  }[];
  /** Treated vs held out; null when the automation never held anyone out in the period. */
  holdout: (HoldoutComparison & { percent: number; revenueCurrency: string | null }) | null;
}

// A type, not an interface: a row type of `execute` must be indexable.
type Period = {
  from: string;
  to: string;
  days: number;
  timeZone: string;
  start: string;
  end: string;
};

async function periodOf(tenantId: string, q: { from?: string; to?: string }): Promise<Period> {
  const [row] = await getDb().execute<Period & { bad: boolean }>(sql`
    with shop as (select timezone as tz, (now() at time zone timezone)::date as today from tenants where id = ${tenantId}::uuid),
    p as (select tz, coalesce(${q.to ?? null}::date, today) as t,
                 coalesce(${q.from ?? null}::date, coalesce(${q.to ?? null}::date, today) - 29) as f from shop)
    select to_char(f, 'YYYY-MM-DD') as "from", to_char(t, 'YYYY-MM-DD') as "to", (t - f + 1)::int as days,
      tz as "timeZone", (f::timestamp at time zone tz)::text as start, ((t + 1)::timestamp at time zone tz)::text as "end",
      (t - f) > 366 as bad
    from p`);
  if (!row) throw notFound("That shop");
  if (row.bad)
    throw new AppError(
      422,
      "invalid",
      "The period can be at most a year: choose a later from or an earlier to.",
    );
  return row;
}

const toRow = (r: Partial<Record<keyof Row, unknown>>): Row => ({
  touches: Number(r.touches ?? 0),
  recipients: Number(r.recipients ?? 0),
  conversions: Number(r.conversions ?? 0),
  revenue: String(r.revenue ?? "0.00"),
});

/** The groupings the report shows; `all` is the period's totals. */
type Dim = "all" | "day" | "step" | "version" | "branch";

/** What the report's one data statement returns (`reportData`). */
interface ReportData {
  currency: string | null;
  currencies: { currency: string | null; conversions: number; revenue: string }[];
  touched: { dim: Dim; k: string | null; touches: number }[];
  reached: { dim: Dim | "entry"; k: string | null; recipients: number | null }[];
  ordered: { dim: Dim; k: string | null; conversions: number; revenue: string | null }[];
  buyers: { branch: string; customers: number; squares: string }[];
  holdout: { grp: string; customers: number; conversions: number; revenue: string; squares: string }[];
}

/** Which automation, period and version the report is about, and what it needs beyond the rollups. */
export interface ReportScope {
  tenantId: string;
  automationId: string;
  /** Shop days, both included (YYYY-MM-DD). */
  from: string;
  to: string;
  /** The period's bounds as instants, for the attributed orders read row by row. */
  start: string;
  end: string;
  version: number | null;
  /** The shop's report currency setting, if any. */
  settingCurrency: string | null;
  /** The graph has a Split step: its winner needs each buyer's revenue. */
  splits: boolean;
  /** The automation holds customers out now (its entries may also show one held out before). */
  holdoutPercent: number;
}

// GROUPING(d, node_id, automation_version, branch) per grouping set: a bit is 1 where the set leaves it out.
const DIM_OF = sql`case grouping(d, node_id, automation_version, branch)
  when 15 then 'all' when 7 then 'day' when 11 then 'step' when 13 then 'version' else 'branch' end`;
const KEY_OF = sql`coalesce(to_char(d, 'YYYY-MM-DD'), node_id, automation_version::text, branch)`;
const MONEY = sql.raw(`'FM999999999999990.00'`);

/**
 * Everything the report reads, in one statement over ranges of the two rollups' keys (shop,
 * automation, day), so its work grows with the period's days, steps, versions and branches, not
 * with the automation's messages or orders:
 *
 * - `automation_step_days` (s): touches, conversions and revenue per day, version, step, branch
 *   and currency, grouped with GROUPING SETS; the currency is the shop's setting, else the one most
 *   attributed orders are in;
 * - `automation_reach_days` (r): distinct customers reached, exact for any period — a customer
 *   counts on their first day in the period, the one whose gap reaches back before `from`
 *   (lib/db/schema/performance.ts);
 * - only for a Split's winner (each buyer's revenue) and a holdout's comparison (each customer's
 *   revenue per group; with a holdout set, or anyone held out in the period), the attributed
 *   orders of the period themselves, by their (shop, automation, at) index: a sum of squares per
 *   customer is no sum of days. Postgres skips the read when neither is wanted (a one-time filter).
 */
export function reportDataStatement(q: ReportScope): SQL {
  const v0 = q.version ?? 0;
  const sv = q.version === null ? sql`` : sql`and version = ${q.version}`;
  const range = reportRange(q.tenantId, q.automationId, q, q.version);
  return sql`
    with s as materialized (
      select day as d, version as automation_version, node_id, nullif(branch, '') as branch,
        nullif(currency, '') as currency, touches, conversions, revenue
      from automation_step_days
      where tenant_id = ${q.tenantId}::uuid and automation_id = ${q.automationId}::uuid
        and day between ${q.from}::date and ${q.to}::date ${sv}),
    r as materialized (
      select day, version, scope, key, customers, gap > day - ${q.from}::date as first
      from automation_reach_days
      where tenant_id = ${q.tenantId}::uuid and automation_id = ${q.automationId}::uuid
        and day between ${q.from}::date and ${q.to}::date
        and (version = ${v0}::int or (scope = 'all' and ${q.version === null}::boolean))),
    currencies as (
      select currency, sum(conversions)::int as conversions, to_char(sum(revenue), ${MONEY}) as revenue
      from s where conversions > 0 group by currency),
    cur as (
      select coalesce(${q.settingCurrency}::text,
        (select currency from currencies order by conversions desc, currency limit 1)) as c),
    main as (select s.* from s, cur where s.conversions > 0 and s.currency is not distinct from cur.c),
    touched as (
      select ${DIM_OF} as dim, ${KEY_OF} as k, sum(touches)::int as touches
      from s where touches > 0
      group by grouping sets ((), (d), (node_id), (automation_version), (branch))),
    reached as (
      select 'all' as dim, null::text as k, sum(customers) filter (where first)::int as recipients
        from r where version = ${v0}::int and scope = 'all'
      union all select 'day', to_char(day, 'YYYY-MM-DD'), sum(customers)::int
        from r where version = ${v0}::int and scope = 'all' group by day
      union all select 'version', version::text, sum(customers) filter (where first)::int
        from r where version <> 0 and scope = 'all' group by version
      union all select case scope when 'step' then 'step' when 'branch' then 'branch' else 'entry' end, key,
          sum(customers) filter (where first)::int
        from r where version = ${v0}::int and scope in ('step', 'branch', 'entry') group by scope, key),
    ordered as (
      select ${DIM_OF} as dim, ${KEY_OF} as k, sum(conversions)::int as conversions,
        to_char(sum(revenue), ${MONEY}) as revenue
      from main group by grouping sets ((d), (node_id), (automation_version), (branch))),
    o as materialized (
      select touch_kind, recipient, branch, currency, amount from order_attributions
      where ${range}
        and (${q.splits}::boolean or ${q.holdoutPercent > 0}::boolean
          or exists (select 1 from r where scope = 'entry' and key = 'held_out'))),
    buyers as (
      select branch, count(*)::int as customers, sum(x * x)::text as squares from (
        select o.branch, o.recipient, sum(o.amount) as x from o, cur
        where ${q.splits}::boolean and o.touch_kind = 'message' and o.branch is not null
          and o.currency is not distinct from cur.c
        group by o.branch, o.recipient) c
      group by branch),
    per_customer as (
      select case touch_kind when 'holdout' then 'held_out' else 'treated' end as grp, recipient, sum(amount) as revenue
      from o, cur where o.currency is not distinct from cur.c
      group by 1, 2),
    sums as (
      select grp, count(*)::int as conversions, sum(revenue)::text as revenue, sum(revenue * revenue)::text as squares
      from per_customer group by grp),
    holdout as (
      select e.k as grp, e.recipients as customers, coalesce(s.conversions, 0) as conversions,
        coalesce(s.revenue, '0') as revenue, coalesce(s.squares, '0') as squares
      from reached e left join sums s on s.grp = e.k where e.dim = 'entry')
    select json_build_object(
      'currency', (select c from cur),
      'currencies', (select coalesce(json_agg(x order by x.conversions desc, x.currency), '[]') from currencies x),
      'touched', (select coalesce(json_agg(x), '[]') from touched x),
      'reached', (select coalesce(json_agg(x), '[]') from reached x where x.dim <> 'entry'),
      'ordered', (select coalesce(json_agg(x), '[]') from ordered x),
      'buyers', (select coalesce(json_agg(x), '[]') from buyers x),
      'holdout', (select coalesce(json_agg(x), '[]') from holdout x)) as data`;
}

async function reportData(q: ReportScope): Promise<ReportData> {
  const [row] = await getDb().execute<{ data: ReportData }>(reportDataStatement(q));
  return row!.data;
}

/** The index range the attributed orders are read by: (shop, automation, at), and a version. */
export function reportRange(
  tenantId: string,
  automationId: string,
  p: { start: string; end: string },
  version: number | null,
): SQL {
  const v = version === null ? sql`` : sql`and automation_version = ${version}`;
  return sql`tenant_id = ${tenantId}::uuid and automation_id = ${automationId}::uuid
    and at >= ${p.start}::timestamptz and at < ${p.end}::timestamptz ${v}`;
}

/** One grouping's rows, by key: touches and recipients, conversions and revenue. */
function groupOf(data: ReportData, dim: Dim): Map<string, Row> {
  const out = new Map<string, Row>();
  for (const r of data.touched)
    if (r.dim === dim && r.k !== null) out.set(r.k, toRow({ touches: r.touches }));
  for (const r of data.reached)
    if (r.dim === dim && r.k !== null)
      out.set(r.k, { ...(out.get(r.k) ?? toRow({})), recipients: r.recipients ?? 0 });
  for (const r of data.ordered)
    if (r.dim === dim && r.k !== null)
      out.set(r.k, {
        ...(out.get(r.k) ?? toRow({})),
        conversions: r.conversions,
        revenue: r.revenue ?? "0.00",
      });
  return out;
}

function stepLabel(graph: Graph | null, nodeId: string): { label: string; inGraph: boolean } {
  const node = graph?.nodes.find((n) => n.id === nodeId);
  const params = (node?.params ?? {}) as Record<string, unknown>;
  const named =
    typeof params.subject === "string" && params.subject ? `Send email “${params.subject}”` : null;
  if (!node) return { label: nodeId, inGraph: false };
  return {
    label: named ?? (node.type === HTTP_REQUEST_TYPE ? "Send HTTP request" : nodeId),
    inGraph: true,
  };
}

function splitBranches(graph: Graph | null): Map<string, { nodeId: string; label: string }> {
  const out = new Map<string, { nodeId: string; label: string }>();
  for (const node of graph?.nodes ?? []) {
    if (node.type !== SPLIT_NODE_TYPE) continue;
    const branches = (node.params as { branches?: unknown }).branches;
    if (!Array.isArray(branches)) continue;
    for (const b of branches as { id?: unknown; label?: unknown }[])
      if (typeof b.id === "string")
        out.set(b.id, { nodeId: node.id, label: typeof b.label === "string" ? b.label : b.id });
  }
  return out;
}

/**
 * `decideSplit` is pure and its Monte Carlo (10,000 draws) costs milliseconds: a page loaded again
 * with the same counts takes the answer from memory (the last 500 sets of counts, per process).
 */
const splitMemo = new Map<string, SplitReport>();
function decideSplitOnce(branches: BranchCounts[]): SplitReport {
  const key = JSON.stringify(branches);
  const known = splitMemo.get(key);
  if (known) return known;
  const decided = decideSplit(branches);
  if (splitMemo.size >= 500) splitMemo.delete(splitMemo.keys().next().value!);
  splitMemo.set(key, decided);
  return decided;
}

const perRecipient = (revenue: string, recipients: number) =>
  recipients > 0 ? (Number(revenue) / recipients).toFixed(2) : null;

/** The Performance report of one automation of the shop (404 for another shop's). */
export async function automationPerformance(
  tenantId: string,
  automationId: string,
  query: unknown = {},
): Promise<PerformanceReport> {
  const q = parseOrThrow(performanceQuery, query, "The performance query is invalid");
  if (!isUuid(automationId)) throw notFound("That automation");
  // Statement 1: the automation, the shop's attribution settings and the period, together.
  const [head] = await getDb().execute<
    Period & {
      bad: boolean;
      graph: Graph | null;
      holdout_percent: number | null;
      goal: AttributionSettings["goal"] | null;
      window_days: number | null;
      currency: string | null;
    }
  >(sql`
    with shop as (select timezone as tz, (now() at time zone timezone)::date as today from tenants where id = ${tenantId}::uuid),
    p as (select tz, coalesce(${q.to ?? null}::date, today) as t,
                 coalesce(${q.from ?? null}::date, coalesce(${q.to ?? null}::date, today) - 29) as f from shop)
    select to_char(f, 'YYYY-MM-DD') as "from", to_char(t, 'YYYY-MM-DD') as "to", (t - f + 1)::int as days,
      tz as "timeZone", (f::timestamp at time zone tz)::text as start, ((t + 1)::timestamp at time zone tz)::text as "end",
      (t - f) > 366 as bad, a.graph, a.holdout_percent, s.goal, s.window_days, s.currency
    from p
    left join (select coalesce(active_graph, draft_graph) as graph, holdout_percent from automations
      where tenant_id = ${tenantId}::uuid and id = ${automationId}::uuid) a on true
    left join attribution_settings s on s.tenant_id = ${tenantId}::uuid`);
  if (!head || head.holdout_percent === null) throw notFound("That automation");
  if (head.bad)
    throw new AppError(
      422,
      "invalid",
      "The period can be at most a year: choose a later from or an earlier to.",
    );
  const graph = head.graph;
  const settings: AttributionSettings =
    head.goal === null
      ? DEFAULT_ATTRIBUTION
      : { goal: head.goal, windowDays: Number(head.window_days), currency: head.currency };
  const p: Period = {
    from: head.from,
    to: head.to,
    days: head.days,
    timeZone: head.timeZone,
    start: head.start,
    end: head.end,
  };
  const version = q.version ?? null;
  const tz = p.timeZone;
  const branchInfo = splitBranches(graph);

  // Statement 2: everything else (reportDataStatement).
  const data = await reportData({
    tenantId,
    automationId,
    from: p.from,
    to: p.to,
    start: p.start,
    end: p.end,
    version,
    settingCurrency: settings.currency,
    splits: branchInfo.size > 0,
    holdoutPercent: head.holdout_percent,
  });
  const currencies = data.currencies;
  const currency = data.currency;
  const main = currencies.find((c) => c.currency === currency);
  const touched = {
    touches: data.touched.find((r) => r.dim === "all")?.touches ?? 0,
    recipients: data.reached.find((r) => r.dim === "all")?.recipients ?? 0,
  };
  const days = groupOf(data, "day");
  const steps = groupOf(data, "step");
  const versions = groupOf(data, "version");
  const branches = groupOf(data, "branch");
  const dayList: string[] = [];
  for (
    let d = new Date(`${p.from}T00:00:00Z`);
    dayList.length < p.days;
    d = new Date(d.getTime() + 86_400_000)
  )
    dayList.push(d.toISOString().slice(0, 10));

  const splitsByNode = new Map<string | null, PerformanceReport["splits"][number]>();
  for (const [id, row] of branches) {
    const info = branchInfo.get(id);
    const nodeId = info?.nodeId ?? null;
    let split = splitsByNode.get(nodeId);
    if (!split)
      splitsByNode.set(
        nodeId,
        (split = { nodeId, branches: [], winner: null, neededMore: null, stats: null }),
      );
    split.branches.push({
      id,
      label: info?.label ?? id,
      entered: row.recipients,
      conversions: row.conversions,
      rate: row.recipients > 0 ? row.conversions / row.recipients : null,
      revenue: row.revenue,
      revenuePerRecipient: perRecipient(row.revenue, row.recipients),
      probabilityBest: null,
    });
  }

  // What the winner's maths needs per branch (split-stats.ts): the customers who bought, and the
  // sum of each customer's revenue squared, in the report's currency.
  const buyers = data.buyers;
  const buyersOf = new Map(buyers.map((b) => [b.branch, b]));
  for (const [id, info] of branchInfo) {
    const split = splitsByNode.get(info.nodeId);
    if (!split || split.branches.some((b) => b.id === id)) continue;
    split.branches.push({
      id,
      label: info.label,
      entered: 0,
      conversions: 0,
      rate: null,
      revenue: "0.00",
      revenuePerRecipient: null,
      probabilityBest: null,
    });
  }
  for (const split of splitsByNode.values()) {
    if (split.nodeId === null || split.branches.length < 2) continue;
    const order = [...branchInfo.keys()];
    split.branches.sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id));
    const stats = decideSplitOnce(
      split.branches.map((b) => ({
        id: b.id,
        label: b.label,
        entered: b.entered,
        conversions: Math.min(b.entered, buyersOf.get(b.id)?.customers ?? 0),
        revenue: Number(b.revenue),
        revenueSquares: Number(buyersOf.get(b.id)?.squares ?? 0),
      })),
    );
    split.stats = stats;
    for (const b of split.branches)
      b.probabilityBest = stats.branches.find((x) => x.id === b.id)?.probabilityBest ?? null;
    split.winner = stats.decision.kind === "winner" ? stats.decision.branch : null;
    split.neededMore = stats.decision.kind === "no_winner" ? stats.decision.morePerBranch : null;
  }

  const revenue = main?.revenue ?? "0.00";
  return {
    automationId,
    from: p.from,
    to: p.to,
    days: p.days,
    timeZone: tz,
    version,
    settings,
    currency,
    recipients: touched.recipients,
    touches: touched.touches,
    conversions: main?.conversions ?? 0,
    revenue,
    revenuePerRecipient: perRecipient(revenue, touched.recipients),
    otherCurrencies: currencies
      .filter((c) => c.currency !== currency)
      .map((c) => ({ currency: c.currency, conversions: Number(c.conversions), revenue: c.revenue })),
    byDay: dayList.map((day) => ({ day, ...(days.get(day) ?? toRow({})) })),
    bySteps: [...steps]
      .map(([nodeId, row]) => ({ nodeId, ...stepLabel(graph, nodeId), ...row }))
      .sort((a, b) => b.touches - a.touches || a.nodeId.localeCompare(b.nodeId)),
    byVersion: [...versions]
      .map(([key, row]) => ({ version: Number(key), ...row }))
      .sort((a, b) => b.version - a.version),
    splits: [...splitsByNode.values()],
    holdout: holdoutOf(data.holdout, head.holdout_percent, currency),
  };
}

/**
 * Treated vs held out in the period: the customers who entered (`entered` and `holdout` touches),
 * and per group the orders attributed to its touches — the treated customers' to a step of this
 * automation, the held-out customers' to their entry — summed per customer for the statistics.
 */
function holdoutOf(
  rows: ReportData["holdout"],
  percent: number,
  currency: string | null,
): PerformanceReport["holdout"] {
  const group = (name: string) => {
    const r = rows.find((row) => row.grp === name);
    return {
      customers: Number(r?.customers ?? 0),
      conversions: Math.min(Number(r?.conversions ?? 0), Number(r?.customers ?? 0)),
      revenue: Number(r?.revenue ?? 0),
      revenueSquares: Number(r?.squares ?? 0),
    };
  };
  const heldOut = group("held_out");
  if (heldOut.customers === 0 && percent === 0) return null;
  return { ...compareHoldout(group("treated"), heldOut), percent, revenueCurrency: currency };
}

/** Attributed orders of an automation in a period, newest first (the CSV export and `GET …/attributions`). */
export async function attributedOrders(tenantId: string, automationId: string, query: unknown = {}) {
  const q = parseOrThrow(performanceQuery, query, "The attributions query is invalid");
  if (!isUuid(automationId)) throw notFound("That automation");
  const [found] = await getDb().execute(
    sql`select 1 from automations where tenant_id = ${tenantId}::uuid and id = ${automationId}::uuid`,
  );
  if (!found) throw notFound("That automation");
  const p = await periodOf(tenantId, q);
  const v = q.version === undefined ? sql`` : sql`and automation_version = ${q.version}`;
  const rows = await getDb().execute<{
    order_id: string;
    amount: string;
    currency: string | null;
    customer_id: string | null;
    email: string | null;
    run_id: string;
    node_id: string;
    automation_version: number;
    branch: string | null;
    touch_kind: string;
    touched_at: string;
    at: string;
  }>(sql`
    select order_id, amount::text as amount, currency, customer_id, email, run_id, node_id, automation_version,
      branch, touch_kind, touched_at::text, at::text
    from order_attributions
    where tenant_id = ${tenantId}::uuid and automation_id = ${automationId}::uuid
      and at >= ${p.start}::timestamptz and at < ${p.end}::timestamptz ${v}
    order by at desc limit 10000`);
  return {
    from: p.from,
    to: p.to,
    items: rows.map((r) => ({
      orderId: r.order_id,
      amount: r.amount,
      currency: r.currency,
      customerId: r.customer_id,
      email: r.email,
      runId: r.run_id,
      nodeId: r.node_id,
      version: Number(r.automation_version),
      branch: r.branch,
      heldOut: r.touch_kind === "holdout",
      touchedAt: new Date(r.touched_at).toISOString(),
      at: new Date(r.at).toISOString(),
    })),
  };
}

const CSV_COLUMNS = [
  "orderId",
  "amount",
  "currency",
  "customerId",
  "email",
  "runId",
  "nodeId",
  "version",
  "branch",
  "heldOut",
  "touchedAt",
  "at",
] as const;

function csvCell(value: unknown): string {
  const text = value === null || value === undefined ? "" : String(value);
  // A cell a spreadsheet would run as a formula is quoted with a leading apostrophe.
  const safe = /^[=+\-@\t\r]/.test(text) && !/^-?\d/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function attributionsCsv(items: Awaited<ReturnType<typeof attributedOrders>>["items"]): string {
  const lines = [CSV_COLUMNS.join(",")];
  for (const item of items) lines.push(CSV_COLUMNS.map((c) => csvCell(item[c])).join(","));
  return `${lines.join("\r\n")}\r\n`;
}

/**
 * Each automation's attributed revenue in the last 30 shop days (today included) by currency (the
 * automations list's column), from the dashboard's rollup `automation_revenue_days`: at most days ×
 * automations × currencies rows, however many orders came.
 */
export async function revenueLast30Days(tenantId: string): Promise<Map<string, Money[]>> {
  const rows = await getDb().execute<{ automation_id: string; currency: string | null; revenue: string }>(sql`
    with shop as (select (now() at time zone timezone)::date as today from tenants where id = ${tenantId}::uuid)
    select d.automation_id, nullif(d.currency, '') as currency, to_char(sum(d.revenue), 'FM999999999999990.00') as revenue
    from automation_revenue_days d, shop
    where d.tenant_id = ${tenantId}::uuid and d.day > shop.today - 30 and d.day <= shop.today
    group by 1, 2 order by 1, sum(d.revenue) desc`);
  const out = new Map<string, Money[]>();
  for (const r of rows)
    out.set(r.automation_id, [
      ...(out.get(r.automation_id) ?? []),
      { amount: r.revenue, currency: r.currency },
    ]);
  return out;
}
