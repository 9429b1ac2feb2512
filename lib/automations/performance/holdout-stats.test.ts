import { describe, expect, it } from "vitest";
import { compareHoldout, holdoutSentence, rateDifference, wilson, type GroupSums } from "./holdout-stats";

/** mulberry32: a small seeded PRNG, so the simulation is the same on every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An order's value: log-normal around €60 (orders are skewed: a few large ones). */
function orderValue(random: () => number, median: number): number {
  const u = Math.max(random(), 1e-12);
  const v = random();
  const normal = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  return Math.round(median * Math.exp(0.6 * normal) * 100) / 100;
}

/** One group of `n` customers: each converts with `p` and brings one order when they do. */
function simulateGroup(random: () => number, n: number, p: number, median: number): GroupSums {
  const g = { customers: n, conversions: 0, revenue: 0, revenueSquares: 0 };
  for (let i = 0; i < n; i++) {
    if (random() >= p) continue;
    const value = orderValue(random, median);
    g.conversions += 1;
    g.revenue += value;
    g.revenueSquares += value * value;
  }
  return g;
}

// The true mean of a log-normal with median m and sigma 0.6 is m·e^(0.18).
const mean = (median: number) => median * Math.exp(0.18);

describe("holdout statistics", () => {
  it("covers the true effect in 93–97 % of 2,000 simulated shops, for conversion and revenue per customer", () => {
    const random = prng(20261207);
    const shops = 2000;
    let rateCovered = 0;
    let revenueCovered = 0;
    for (let s = 0; s < shops; s++) {
      // Shops of different sizes and rates: 10–50 % held out of 600–3,000 customers.
      const customers = 600 + Math.floor(random() * 2400);
      const share = 0.1 + random() * 0.4;
      const pHeld = 0.03 + random() * 0.05;
      const pTreated = pHeld * (1 + random() * 0.5);
      const median = 40 + random() * 60;
      const heldOutN = Math.round(customers * share);
      const treated = simulateGroup(random, customers - heldOutN, pTreated, median);
      const heldOut = simulateGroup(random, heldOutN, pHeld, median);
      const c = compareHoldout(treated, heldOut);
      const trueRate = pTreated - pHeld;
      const trueRevenue = (pTreated - pHeld) * mean(median);
      if (c.rateDifference!.low <= trueRate && trueRate <= c.rateDifference!.high) rateCovered += 1;
      const r = c.revenuePerCustomerDifference!;
      if (r.low <= trueRevenue && trueRevenue <= r.high) revenueCovered += 1;
    }
    expect(rateCovered / shops).toBeGreaterThanOrEqual(0.93);
    expect(rateCovered / shops).toBeLessThanOrEqual(0.97);
    expect(revenueCovered / shops).toBeGreaterThanOrEqual(0.93);
    expect(revenueCovered / shops).toBeLessThanOrEqual(0.97);
  });

  it("Wilson and Newcombe agree with published values", () => {
    // Newcombe (1998), example (a): 56/70 vs 48/80 → 0.0524 to 0.3339.
    const d = rateDifference(56, 70, 48, 80);
    expect(d.low).toBeCloseTo(0.0524, 3);
    expect(d.high).toBeCloseTo(0.3339, 3);
    const w = wilson(0, 10);
    expect(w.low).toBe(0);
    expect(w.high).toBeCloseTo(0.2775, 3);
  });

  it("says plainly when the range includes zero, and waits for two customers a group", () => {
    const euro = (n: number) => `€${n.toLocaleString("en-US")}`;
    const treated = { customers: 1000, conversions: 52, revenue: 3120, revenueSquares: 3120 * 70 };
    const heldOut = { customers: 180, conversions: 8, revenue: 480, revenueSquares: 480 * 65 };
    const sentence = holdoutSentence(compareHoldout(treated, heldOut), 30, euro);
    expect(sentence).toMatch(/^[+−]€[\d,]+ \([+−]?€[\d,]+ to [+−]?€[\d,]+\) over 30 days, 1,180 customers\./);
    expect(sentence).toContain("The range includes zero");
    const none = { customers: 1, conversions: 0, revenue: 0, revenueSquares: 0 };
    expect(compareHoldout(treated, none).incrementalRevenue).toBeNull();
  });
});
