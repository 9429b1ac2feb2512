import { LOCALE } from "@/components/ui/format";

/**
 * The status line of a run waiting on a retry (SPEC §2 "Retries"): "Retrying — attempt 2 of 3 at
 * 14:05", the time in the viewer's zone (24-hour, like the engine's own "Retry 2 of 3 at 14:05
 * UTC."). Pure, so the wording is tested; `RetryingAt` renders it.
 */

/** "14:05" in `timeZone` (the runtime's zone when omitted). */
export function clockTime(date: Date, timeZone?: string): string {
  return new Intl.DateTimeFormat(LOCALE, {
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZone,
  }).format(date);
}

/**
 * "Retrying — attempt 2 of 3 at 14:05"; "Retrying now — attempt 2 of 3" once it is due within a
 * minute (like "Resuming now"). `timeZone` "UTC" (the server's render, before the browser's zone
 * is known) says so after the time. Without attempt numbers: "Retrying at 14:05".
 */
export function retryingText(
  due: Date,
  now: number,
  retry: { attempt: number; of: number } | null,
  timeZone?: string,
): string {
  const attempt = retry ? ` — attempt ${retry.attempt} of ${retry.of}` : "";
  if (due.getTime() - now < 60_000) return `Retrying now${attempt}`;
  const time = `${clockTime(due, timeZone)}${timeZone === "UTC" ? " UTC" : ""}`;
  return retry ? `Retrying${attempt} at ${time}` : `Retrying at ${time}`;
}
