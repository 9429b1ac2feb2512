/**
 * Short durations as merchants type them: `30m`, `2h`, `3d` (minutes, hours, days). Pure and
 * browser-safe; used by `create_task.dueIn` and, later, by the later step's `when`.
 */

export const DURATION_PATTERN = /^\d+[mhd]$/;

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

export function isDuration(text: string): boolean {
  return DURATION_PATTERN.test(text);
}

/** `parseDuration("2h")` → 7_200_000. Throws for anything that is not a duration such as `30m`. */
export function parseDuration(text: string): number {
  if (!DURATION_PATTERN.test(text)) {
    throw new Error(`'${text}' is not a duration such as 30m, 2h or 3d.`);
  }
  const unit = text.slice(-1) as keyof typeof UNIT_MS;
  return Number(text.slice(0, -1)) * UNIT_MS[unit];
}

/** "30 minutes", "1 hour", "3 days": how a duration reads in a sentence. */
export function describeDuration(text: string): string {
  if (!DURATION_PATTERN.test(text)) return text;
  const amount = Number(text.slice(0, -1));
  const unit = { m: "minute", h: "hour", d: "day" }[text.slice(-1) as keyof typeof UNIT_MS];
  return `${amount} ${unit}${amount === 1 ? "" : "s"}`;
}
