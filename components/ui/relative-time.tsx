"use client";

import { useSyncExternalStore } from "react";
import { formatExact, formatRelative } from "./format";
import { minuteSnapshot, readClock, serverMinuteSnapshot, subscribeToMinute } from "./clock";

export interface RelativeTimeProps {
  /** An ISO date-time string or a Date. */
  value: string | Date;
  className?: string;
}

/**
 * "5 minutes ago", with the exact time in the tooltip and a machine-readable `dateTime`.
 * Updates every minute. The server renders with its own clock and time zone; the browser
 * corrects both right after hydration (the mismatch is expected, hence suppressHydrationWarning).
 */
export function RelativeTime({ value, className }: RelativeTimeProps) {
  const minute = useSyncExternalStore(subscribeToMinute, minuteSnapshot, serverMinuteSnapshot);
  const date = typeof value === "string" ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return <span className={className}>—</span>;
  // `minute` triggers the re-render; the text itself uses the precise clock.
  const now = readClock();
  const exact = formatExact(date, minute === null ? "UTC" : undefined);
  return (
    <time dateTime={date.toISOString()} title={exact} className={className} suppressHydrationWarning>
      {formatRelative(date, now)}
    </time>
  );
}
