import { describe, expect, it } from "vitest";
import {
  DEFAULT_SPLIT_RULE,
  declaredWinner,
  decideSplit,
  probabilityBest,
  seededRandom,
  type BranchCounts,
} from "./split-stats";

function branch(id: string, entered: number, conversions: number, revenue = conversions * 50): BranchCounts {
  return {
    id,
    label: `Group ${id.toUpperCase()}`,
    entered,
    conversions,
    revenue,
    revenueSquares: conversions * 50 * 50,
  };
}

/**
 * One simulated shop: customers arrive one at a time, each sent to a branch at random (50/50) and
 * converting with its branch's true rate; after every new customer and after every conversion the
 * rule is checked, as the report checks it. Returns the branch declared, or null by the horizon.
 */
function simulateShop(
  rates: readonly number[],
  perBranch: number,
  random: () => number,
  decides: (branches: BranchCounts[]) => number | null,
): number | null {
  const branches = rates.map((_, i) => branch(String.fromCharCode(97 + i), 0, 0));
  const horizon = perBranch * rates.length;
  for (let customer = 0; customer < horizon; customer++) {
    const index = Math.floor(random() * rates.length);
    const b = branches[index]!;
    b.entered += 1;
    let decided = decides(branches);
    if (decided !== null) return decided;
    if (random() < rates[index]!) {
      b.conversions += 1;
      b.revenue += 50;
      b.revenueSquares += 2500;
      decided = decides(branches);
      if (decided !== null) return decided;
    }
  }
  return null;
}

const SHOPS = 2_000;
const product = (branches: BranchCounts[]) => declaredWinner(branches)?.index ?? null;

/** P(best) for two branches by the normal approximation: the naive rule, cheap enough to peek with. */
function naive(branches: BranchCounts[]): number | null {
  const [a, b] = branches as [BranchCounts, BranchCounts];
  if (a.entered < 200 || b.entered < 200) return null;
  const pa = (a.conversions + 1) / (a.entered + 2);
  const pb = (b.conversions + 1) / (b.entered + 2);
  const se = Math.sqrt((pa * (1 - pa)) / (a.entered + 2) + (pb * (1 - pb)) / (b.entered + 2));
  const z = (pb - pa) / se;
  // Φ(z) ≥ 0.95 ⇔ z ≥ 1.645: one branch at 95 % chance of being the best.
  return z >= 1.645 ? 1 : z <= -1.645 ? 0 : null;
}

describe("decideSplit", () => {
  it("gives each branch its rate, revenue per recipient and chance of being the best", () => {
    const report = decideSplit([branch("a", 1000, 100, 5000), branch("b", 1000, 150, 7500)]);
    const [a, b] = report.branches;
    expect(a).toMatchObject({ conversionRate: 0.1, revenuePerRecipient: 5 });
    expect(b).toMatchObject({ conversionRate: 0.15, revenuePerRecipient: 7.5 });
    expect(a!.probabilityBest + b!.probabilityBest).toBeCloseTo(1, 5);
    expect(b!.probabilityBest).toBeGreaterThan(0.99);
    expect(report.decision).toMatchObject({ kind: "winner", branch: "b", label: "Group B" });
  });

  it("is the same for the same counts (seeded), and Beta(1,1) on nothing is a coin toss", () => {
    const counts = [branch("a", 300, 30), branch("b", 300, 36)];
    expect(probabilityBest(counts)).toEqual(probabilityBest(counts));
    const [a] = probabilityBest([branch("a", 0, 0), branch("b", 0, 0)]);
    expect(a).toBeGreaterThan(0.47);
    expect(a).toBeLessThan(0.53);
  });

  it("declares no winner below the minimum per branch, and says roughly how many more", () => {
    const report = decideSplit([branch("a", 150, 5), branch("b", 150, 40)]);
    expect(report.decision.kind).toBe("no_winner");
    if (report.decision.kind !== "no_winner") return;
    expect(report.decision.reason).toBe("too_few");
    expect(report.decision.morePerBranch).toBeGreaterThanOrEqual(50);
    // A configurable minimum: at 100 a branch this lead wins.
    expect(
      decideSplit([branch("a", 150, 5), branch("b", 150, 40)], { minPerBranch: 100 }).decision.kind,
    ).toBe("winner");
  });

  it("says it is not sure yet when the branches are close, with a rough number to go", () => {
    const report = decideSplit([branch("a", 500, 50), branch("b", 500, 55)]);
    expect(report.decision).toMatchObject({ kind: "no_winner", reason: "not_sure" });
    if (report.decision.kind !== "no_winner") return;
    expect(report.decision.morePerBranch).toBeGreaterThan(500);
  });

  it("needs conversions before it can estimate", () => {
    const report = decideSplit([branch("a", 400, 0), branch("b", 400, 0)]);
    expect(report.decision).toEqual({ kind: "no_winner", reason: "not_sure", morePerBranch: null });
  });
});

describe("the winner rule, proven by simulation (peeking after every customer and conversion)", () => {
  it(`declares a winner in at most 5 % of ${SHOPS} A/A shops, where naive 95 % would not`, () => {
    const random = seededRandom(20261207);
    let winners = 0;
    for (let shop = 0; shop < SHOPS; shop++)
      if (simulateShop([0.1, 0.1], 1_500, random, product) !== null) winners += 1;
    expect(winners / SHOPS).toBeLessThanOrEqual(0.05);

    // The naive rule, "95 % chance it's the best" alone, checked as often: fails the bound.
    const again = seededRandom(20261207);
    let naiveWinners = 0;
    for (let shop = 0; shop < 300; shop++)
      if (simulateShop([0.1, 0.1], 1_500, again, naive) !== null) naiveWinners += 1;
    expect(naiveWinners / 300).toBeGreaterThan(0.05);
    console.info(
      `A/A: the rule declared a winner in ${((winners / SHOPS) * 100).toFixed(1)} % of ${SHOPS} shops; naive P(best) ≥ 95 % in ${((naiveWinners / 300) * 100).toFixed(1)} % of 300`,
    );
    // Seconds on an idle machine; a generous limit for a busy CI runner, not a timing assertion.
  }, 120_000);

  it(`finds the right winner of a true 20 % lift in at least 80 % of ${SHOPS} shops`, () => {
    const random = seededRandom(77);
    let right = 0;
    let wrong = 0;
    for (let shop = 0; shop < SHOPS; shop++) {
      const winner = simulateShop([0.2, 0.24], 4_000, random, product);
      if (winner === 1) right += 1;
      else if (winner === 0) wrong += 1;
    }
    console.info(
      `20 % lift (20 % → 24 %), up to 4,000 customers a branch: right winner in ${((right / SHOPS) * 100).toFixed(1)} %, wrong in ${((wrong / SHOPS) * 100).toFixed(1)} %`,
    );
    expect(right / SHOPS).toBeGreaterThanOrEqual(0.8);
    expect(wrong / SHOPS).toBeLessThanOrEqual(0.01);
  }, 120_000);

  it("holds for three branches too (A/A/A, Bonferroni over the comparisons)", () => {
    const random = seededRandom(5);
    let winners = 0;
    for (let shop = 0; shop < 500; shop++)
      if (simulateShop([0.1, 0.1, 0.1], 1_500, random, product) !== null) winners += 1;
    expect(winners / 500).toBeLessThanOrEqual(0.05);
    expect(DEFAULT_SPLIT_RULE.minPerBranch).toBe(200);
  }, 120_000);
});
