import type { RunStatus } from "@/lib/db/schema";

/** The runs that can be re-run (browser-safe: the run page and the runs list ask it too). */
export const RERUNNABLE: readonly RunStatus[] = ["failed", "partial", "cancelled"];

/** Where a re-run starts: the trigger, or the step that failed (itself included). */
export const RERUN_FROM = ["start", "failed_step"] as const;
export type RerunFrom = (typeof RERUN_FROM)[number];

export function isRerunnable(status: string): boolean {
  return (RERUNNABLE as readonly string[]).includes(status);
}
