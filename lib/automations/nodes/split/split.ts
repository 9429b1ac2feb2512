import { z } from "zod";
import { line, paramsObject } from "../params";
import type { SplitChoice, SplitDefinition } from "../types";
import {
  branchShares,
  formatShare,
  groupLabel,
  MAX_BRANCHES,
  MIN_BRANCHES,
  SPLIT_BY,
  SPLIT_NODE_TYPE,
  splitSubjects,
} from "./split-branches";

/**
 * `auto.control.split`: sends each customer (or each record) down one of 2–5 branches, in shares
 * set by the branches' weights — an A/B test. Its out handles are the branch ids (`handles.outFrom`).
 *
 * Which branch is decided by a position in [0, 1) that the engine derives from a stable hash of
 * the automation, this step and the subject (`engine/split-hash.ts`, server-only); this file only
 * maps a position to a branch (cumulative weights), so the same customer always takes the same
 * branch, and a rerun, a dry run and a backtest all agree with the real run.
 *
 * The schema is lenient on purpose (any number of branches, any weight, repeated ids): a stored
 * graph that breaks the rules still loads, and `splitIssues` says what to fix as ready issues.
 */

const branchId = z
  .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be text") })
  .regex(/^[A-Za-z0-9_-]{1,40}$/, "must be 1 to 40 letters, digits, '-' or '_'");

const splitBranch = z.strictObject({
  id: branchId,
  label: line(60),
  weight: z.number({ error: "must be a number" }).finite("must be a number"),
});
export type SplitBranch = z.infer<typeof splitBranch>;

export const splitParams = paramsObject({
  branches: z.array(splitBranch, { error: "must be a list of branches" }).max(20, "are too many"),
  by: z.enum(SPLIT_BY, { error: `must be one of ${SPLIT_BY.join(", ")}` }).default("customer"),
});
export type SplitParams = z.infer<typeof splitParams>;
export { SPLIT_NODE_TYPE };

/**
 * The branch a subject at `position` (uniform in [0, 1)) takes: the cumulative weights cut [0, 1)
 * into one interval per branch. Null when no branch has a positive weight.
 */
export function chooseBranch(params: SplitParams, position: number): SplitChoice | null {
  const shares = branchShares(params.branches);
  let upTo = 0;
  let last: SplitChoice | null = null;
  for (const [index, branch] of params.branches.entries()) {
    const share = shares[index] ?? 0;
    if (share <= 0) continue;
    last = { branch: branch.id, label: branch.label, weight: branch.weight, share };
    upTo += share;
    if (position < upTo) return last;
  }
  // Rounding can leave the cumulative sum a hair under 1: the last branch takes that sliver.
  return last;
}

/** What to fix before the split can run: each problem as a sentence (ready issues). */
export function splitIssues(params: SplitParams): string[] {
  const issues: string[] = [];
  const { branches } = params;
  if (branches.length < MIN_BRANCHES)
    issues.push(`A split needs at least ${MIN_BRANCHES} branches; add another.`);
  if (branches.length > MAX_BRANCHES)
    issues.push(
      `A split can have at most ${MAX_BRANCHES} branches; remove ${branches.length - MAX_BRANCHES}.`,
    );
  const seen = new Set<string>();
  for (const branch of branches) {
    if (seen.has(branch.id))
      issues.push(`Two branches have the id '${branch.id}'; give each branch its own id.`);
    seen.add(branch.id);
  }
  const total = branches.reduce((sum, b) => sum + b.weight, 0);
  if (branches.length > 0 && branches.every((b) => b.weight <= 0))
    issues.push("The branches' weights add up to nothing; give each branch a weight above 0.");
  else
    for (const branch of branches)
      if (branch.weight <= 0)
        issues.push(`'${branch.label}' has a weight of ${branch.weight}; give it a weight above 0.`);
  if (!Number.isFinite(total)) issues.push("The branches' weights are too large; use smaller numbers.");
  return issues;
}

function describeSplit(params: SplitParams): string {
  const shares = branchShares(params.branches);
  const parts = params.branches.map((b, i) => `${b.label} ${formatShare(shares[i] ?? 0)}`);
  return `Split ${splitSubjects(params.by)}: ${parts.join(" · ")}`;
}

export const split = {
  type: SPLIT_NODE_TYPE,
  category: "condition",
  label: "Split (A/B test)",
  description:
    "Sends each customer (or each record) down one of 2 to 5 branches, in the shares you set. The choice is stable: the same customer always takes the same branch, even when a run is re-run.",
  params: splitParams,
  defaultParams: () => ({
    branches: [
      { id: "a", label: groupLabel(0), weight: 50 },
      { id: "b", label: groupLabel(1), weight: 50 },
    ],
    by: "customer" as const,
  }),
  handles: { in: true, out: [], outFrom: "branches" },
  summarise: describeSplit,
  summariseDraft: () => "Split (set its branches)",
  outputs: () => [
    { path: "branch", label: "the id of the branch taken" },
    { path: "label", label: "the name of the branch taken" },
    { path: "weight", label: "the branch's weight" },
    { path: "share", label: "the branch's share, 0 to 1" },
  ],
  split: (params, position) => chooseBranch(params, position),
  by: (params) => params.by,
  check: splitIssues,
} satisfies SplitDefinition<typeof splitParams>;
