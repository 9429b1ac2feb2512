/*
 * A Split's branches as plain data: its exits, their labels and shares. No zod here — the
 * editor's catalog (`catalog.ts` `outHandles`) reads them before the node definitions load.
 */

import type { SplitChoice } from "../types";

export const SPLIT_NODE_TYPE = "auto.control.split";
export const MIN_BRANCHES = 2;
export const MAX_BRANCHES = 5;
export const SPLIT_BY = ["customer", "record"] as const;
export type SplitBy = (typeof SPLIT_BY)[number];

/** "Group A", "Group B", … for the n-th branch (0-based). */
export function groupLabel(index: number): string {
  return `Group ${String.fromCharCode(65 + index)}`;
}

/** A new branch's id: the first of a, b, c, … not taken. */
export function nextBranchId(taken: readonly string[]): string {
  for (let i = 0; i < 26; i++) {
    const id = String.fromCharCode(97 + i);
    if (!taken.includes(id)) return id;
  }
  return `b${taken.length + 1}`;
}

/** Each branch's share of the subjects (0..1); all zero when the weights sum to nothing. */
export function branchShares(branches: readonly { weight: number }[]): number[] {
  const total = branches.reduce((sum, b) => sum + (b.weight > 0 ? b.weight : 0), 0);
  return branches.map((b) => (total > 0 && b.weight > 0 ? b.weight / total : 0));
}

/** "40 %", as the editor, the run page and the report write a share. */
export function formatShare(share: number): string {
  const percent = share * 100;
  const rounded = Math.abs(percent - Math.round(percent)) < 0.05 ? Math.round(percent) : percent.toFixed(1);
  return `${rounded} %`;
}

/** The ids a split's params name as exits (its out handles), in order, from params as stored. */
export function splitBranchIds(params: unknown): string[] {
  const branches =
    typeof params === "object" && params !== null ? (params as Record<string, unknown>).branches : undefined;
  if (!Array.isArray(branches)) return [];
  const ids: string[] = [];
  for (const branch of branches) {
    const id = typeof branch === "object" && branch !== null ? (branch as { id?: unknown }).id : undefined;
    if (typeof id === "string" && id !== "" && !ids.includes(id)) ids.push(id);
  }
  return ids;
}

/** A split exit's label, from params as stored: the branch's label, else null. */
export function splitBranchLabel(params: unknown, handle: string): string | null {
  const branches =
    typeof params === "object" && params !== null ? (params as Record<string, unknown>).branches : undefined;
  if (!Array.isArray(branches)) return null;
  for (const branch of branches) {
    if (typeof branch !== "object" || branch === null) continue;
    const { id, label } = branch as { id?: unknown; label?: unknown };
    if (id === handle && typeof label === "string" && label.trim() !== "") return label.trim();
  }
  return null;
}

/** What a split decided, from a step's output: `{ branch, label, weight, share }`, else null. */
export function splitChoiceOf(output: unknown): SplitChoice | null {
  if (typeof output !== "object" || output === null) return null;
  const { branch, label, weight, share } = output as Record<string, unknown>;
  return typeof branch === "string" &&
    typeof label === "string" &&
    typeof weight === "number" &&
    typeof share === "number"
    ? { branch, label, weight, share }
    : null;
}

/** Who a split divides, in words: "customers", "records". */
export function splitSubjects(by: SplitBy): string {
  return by === "customer" ? "customers" : "records";
}

/** Why a subject went down its branch: "Group B, 40 % of customers". */
export function splitReason(choice: SplitChoice, by: SplitBy): string {
  return `${choice.label}, ${formatShare(choice.share)} of ${splitSubjects(by)}`;
}
