// Pure and browser-safe: what a wait ended with "Resume now" says of who ended it and how early.

/** "2 days 3 hours", "1 hour 59 minutes", "12 minutes", "less than a minute": a span in words. */
export function spanInWords(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return "less than a minute";
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  const part = (n: number, one: string) => (n === 1 ? `1 ${one}` : `${n} ${one}s`);
  if (days > 0) return hours > 0 ? `${part(days, "day")} ${part(hours, "hour")}` : part(days, "day");
  if (hours > 0) return rest > 0 ? `${part(hours, "hour")} ${part(rest, "minute")}` : part(hours, "hour");
  return part(rest, "minute");
}

/**
 * The reason a Wait (or a retry's or a Later step's wait) keeps when someone chose "Resume now":
 * "Resumed early by Ada (editor), 1 hour 59 minutes before it was due."
 */
export function resumedEarlyText(by: string, dueAt: Date, at: Date): string {
  const early = dueAt.getTime() - at.getTime();
  return early >= 60_000
    ? `Resumed early by ${by}, ${spanInWords(early)} before it was due.`
    : `Resumed by ${by} when it was due.`;
}
