const relative = new Intl.RelativeTimeFormat("en-US", { numeric: "auto" });

/**
 * "in 2 hours" for a due time ahead, rounded to the nearest unit (a 2-hour wait seen a few seconds
 * later still reads "in 2 hours", not "in 1 hour"). Minutes up to 90, hours up to 2 days, then days.
 */
export function formatUntil(due: Date, now: number): string {
  const minutes = (due.getTime() - now) / 60_000;
  if (Math.round(minutes) < 90) return relative.format(Math.max(1, Math.round(minutes)), "minute");
  const hours = minutes / 60;
  if (Math.round(hours) < 48) return relative.format(Math.round(hours), "hour");
  return relative.format(Math.round(hours / 24), "day");
}
