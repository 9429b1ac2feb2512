import type { Outcome } from "@/lib/automations/outcomes";

/**
 * How each outcome is drawn: a word, a colour and a pattern, so that no chart tells outcomes apart
 * by colour alone (the legend, the tooltips and the text alternatives carry the word). Browser-safe.
 */
export const OUTCOME_STYLE: Record<
  Outcome,
  { label: string; color: string; pattern: "solid" | "stripes" | "cross" | "dots" | "lines" | "vlines" }
> = {
  succeeded: { label: "Succeeded", color: "#059669", pattern: "solid" },
  partial: { label: "Partial", color: "#d97706", pattern: "stripes" },
  failed: { label: "Failed", color: "#dc2626", pattern: "cross" },
  cancelled: { label: "Cancelled", color: "#71717a", pattern: "dots" },
  waiting: { label: "Waiting", color: "#0284c7", pattern: "lines" },
  running: { label: "In progress", color: "#6366f1", pattern: "vlines" },
};

/** The run status a click on an outcome filters the runs list by (in progress: running). */
export const OUTCOME_STATUS: Record<Outcome, string> = {
  succeeded: "succeeded",
  partial: "partial",
  failed: "failed",
  cancelled: "cancelled",
  waiting: "waiting",
  running: "running",
};

/** "Mon, Nov 30" for a shop day (YYYY-MM-DD); the day is already the shop's, so no zone applies. */
export function dayLabel(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString("en-US", {
    weekday: "short",
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  });
}
