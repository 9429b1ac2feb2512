"use client";

import { useSyncExternalStore } from "react";
import { minuteSnapshot, serverMinuteSnapshot, subscribeToMinute } from "./clock";
import { formatExact } from "./format";

/**
 * "Nov 30, 2026, 9:05 AM GMT+1" in the viewer's time zone, with a machine-readable `dateTime`. The
 * server renders UTC; the browser corrects it right after hydration (hence suppressHydrationWarning).
 */
export function ExactTime({ value, className }: { value: string | Date; className?: string }) {
  const minute = useSyncExternalStore(subscribeToMinute, minuteSnapshot, serverMinuteSnapshot);
  const date = typeof value === "string" ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return <span className={className}>—</span>;
  return (
    <time dateTime={date.toISOString()} className={className} suppressHydrationWarning>
      {formatExact(date, minute === null ? "UTC" : undefined)}
    </time>
  );
}
