/**
 * Treated vs held out, with a 95 % interval for the difference (pure, browser-safe).
 *
 * Each group is its customers: how many entered (`customers`), how many converted, and the goal
 * revenue each brought (`revenue`, `revenueSquares`: the sum and the sum of squares of revenue per
 * customer, customers with none counting 0). Two differences, treated minus held out:
 *
 * - conversion rate: Newcombe's hybrid score interval (1998, method 10) from the two Wilson
 *   intervals, which keeps its 95 % with few conversions, where the Wald interval does not;
 * - revenue per customer: the difference of means with Welch's standard error and the normal
 *   quantile (the means of hundreds of customers are close to normal even when single orders are
 *   skewed).
 *
 * Scaled by the treated customers they read as "incremental": +€1,240 (−€80 to +€2,560). The
 * coverage is checked by simulation (holdout-stats.test.ts: 2,000 shops, 93–97 %).
 */

export interface GroupSums {
  customers: number;
  conversions: number;
  revenue: number;
  revenueSquares: number;
}

export interface Interval {
  estimate: number;
  low: number;
  high: number;
}

export interface HoldoutComparison {
  treated: GroupSums & { rate: number | null; revenuePerCustomer: number | null };
  heldOut: GroupSums & { rate: number | null; revenuePerCustomer: number | null };
  /** Treated minus held out, per customer; null while a group is too small (under 2 customers). */
  rateDifference: Interval | null;
  revenuePerCustomerDifference: Interval | null;
  /** The differences times the treated customers: what the automation added, with its interval. */
  incrementalConversions: Interval | null;
  incrementalRevenue: Interval | null;
  /** The revenue interval includes zero: the difference could be chance. */
  includesZero: boolean | null;
}

/** The 97.5th percentile of the standard normal: a two-sided 95 % interval. */
export const Z95 = 1.959963984540054;

/** Wilson's score interval for a proportion. */
export function wilson(successes: number, n: number, z = Z95): { low: number; high: number } {
  if (n <= 0) return { low: 0, high: 1 };
  const p = successes / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** Newcombe's hybrid score interval for p1 − p2. */
export function rateDifference(x1: number, n1: number, x2: number, n2: number, z = Z95): Interval {
  const p1 = x1 / n1;
  const p2 = x2 / n2;
  const a = wilson(x1, n1, z);
  const b = wilson(x2, n2, z);
  const d = p1 - p2;
  return {
    estimate: d,
    low: d - Math.sqrt((p1 - a.low) ** 2 + (b.high - p2) ** 2),
    high: d + Math.sqrt((a.high - p1) ** 2 + (p2 - b.low) ** 2),
  };
}

function variance(g: GroupSums): number {
  const mean = g.revenue / g.customers;
  return Math.max(0, (g.revenueSquares - g.customers * mean * mean) / (g.customers - 1));
}

/** The difference of two groups' mean revenue per customer, Welch's standard error. */
export function meanDifference(t: GroupSums, h: GroupSums, z = Z95): Interval {
  const d = t.revenue / t.customers - h.revenue / h.customers;
  const se = Math.sqrt(variance(t) / t.customers + variance(h) / h.customers);
  return { estimate: d, low: d - z * se, high: d + z * se };
}

const scale = (i: Interval, k: number): Interval => ({
  estimate: i.estimate * k,
  low: i.low * k,
  high: i.high * k,
});

export function compareHoldout(treated: GroupSums, heldOut: GroupSums): HoldoutComparison {
  const describe = (g: GroupSums) => ({
    ...g,
    rate: g.customers > 0 ? g.conversions / g.customers : null,
    revenuePerCustomer: g.customers > 0 ? g.revenue / g.customers : null,
  });
  const enough = treated.customers >= 2 && heldOut.customers >= 2;
  const rate = enough
    ? rateDifference(treated.conversions, treated.customers, heldOut.conversions, heldOut.customers)
    : null;
  const revenue = enough ? meanDifference(treated, heldOut) : null;
  return {
    treated: describe(treated),
    heldOut: describe(heldOut),
    rateDifference: rate,
    revenuePerCustomerDifference: revenue,
    incrementalConversions: rate ? scale(rate, treated.customers) : null,
    incrementalRevenue: revenue ? scale(revenue, treated.customers) : null,
    includesZero: revenue ? revenue.low <= 0 && revenue.high >= 0 : null,
  };
}

/** "+€1,240" / "−€80": a signed amount as merchants read it, with a real minus sign. */
export function signed(amount: number, format: (n: number) => string): string {
  const rounded = Math.round(amount);
  if (rounded === 0) return format(0);
  return `${rounded > 0 ? "+" : "−"}${format(Math.abs(rounded))}`;
}

/**
 * The comparison in one plain sentence: "+€1,240 (−€80 to +€2,560) over 30 days, 1,180
 * customers. The range includes zero, so this may be chance: keep the holdout running." Null
 * while there is nothing to compare.
 */
export function holdoutSentence(
  c: HoldoutComparison,
  days: number,
  format: (n: number) => string,
): string | null {
  const r = c.incrementalRevenue;
  if (!r) return null;
  const customers = c.treated.customers + c.heldOut.customers;
  const head = `${signed(r.estimate, format)} (${signed(r.low, format)} to ${signed(r.high, format)}) over ${days} ${days === 1 ? "day" : "days"}, ${customers.toLocaleString("en-US")} customers.`;
  return c.includesZero
    ? `${head} The range includes zero, so this may be chance: keep the holdout running to know.`
    : r.estimate > 0
      ? `${head} The range is above zero: the automation brings revenue its customers would not have spent without it.`
      : `${head} The range is below zero: customers who get the automation spend less than those held out.`;
}
