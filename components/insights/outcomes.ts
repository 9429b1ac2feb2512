import type { Outcome } from "@/lib/automations/insights/outcomes";

/**
 * How each outcome is drawn: a word, a colour and a pattern, so that no chart tells outcomes apart
 * by colour alone (the legend, the tooltips and the text alternatives carry the word). Browser-safe.
 */
export const OUTCOME_STYLE: Record<
  Outcome,
  {
    label: string;
    color: string;
    pattern: "solid" | "stripes" | "cross" | "dots" | "lines" | "vlines" | "grid";
  }
> = {
  succeeded: { label: "Succeeded", color: "#059669", pattern: "solid" },
  nothing: { label: "Nothing to do", color: "#a8a29e", pattern: "grid" },
  partial: { label: "Partly failed", color: "#d97706", pattern: "stripes" },
  failed: { label: "Failed", color: "#dc2626", pattern: "cross" },
  cancelled: { label: "Cancelled", color: "#71717a", pattern: "dots" },
  waiting: { label: "Waiting", color: "#0284c7", pattern: "lines" },
  running: { label: "In progress", color: "#6366f1", pattern: "vlines" },
};

/** The run status a click on an outcome filters the runs list by (in progress: running). */
export const OUTCOME_STATUS: Record<Outcome, string> = {
  succeeded: "succeeded",
  nothing: "nothing_to_do",
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

/** "Nov 5": a tick of a month-long chart. */
export function shortDayLabel(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString("en-US", {
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  });
}

/**
 * The same fills in CSS, for the small squares beside the words (no SVG ids to keep unique). The
 * texture is white over the outcome's colour, as in the charts.
 */
export function swatchBackground(outcome: Outcome): string {
  const { color, pattern } = OUTCOME_STYLE[outcome];
  const white = "rgba(255,255,255,0.9)";
  switch (pattern) {
    case "solid":
      return color;
    case "stripes":
      return `repeating-linear-gradient(45deg, ${color} 0 3px, ${white} 3px 4.5px)`;
    case "cross":
      return `repeating-linear-gradient(45deg, transparent 0 3px, ${white} 3px 4px), repeating-linear-gradient(-45deg, ${color} 0 3px, ${white} 3px 4px)`;
    case "dots":
      return `radial-gradient(circle, ${white} 1px, transparent 1.5px) 0 0 / 4px 4px, ${color}`;
    case "lines":
      return `repeating-linear-gradient(0deg, ${color} 0 2.5px, ${white} 2.5px 3.5px)`;
    case "vlines":
      return `repeating-linear-gradient(90deg, ${color} 0 2.5px, ${white} 2.5px 3.5px)`;
    case "grid":
      return `repeating-linear-gradient(0deg, transparent 0 3px, ${white} 3px 4px), repeating-linear-gradient(90deg, ${color} 0 3px, ${white} 3px 4px)`;
  }
}
