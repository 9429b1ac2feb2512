"use client";

import { useSyncExternalStore } from "react";
import { minuteSnapshot, readClock, serverMinuteSnapshot, subscribeToMinute } from "@/components/ui/clock";
import { formatExact } from "@/components/ui/format";
import { formatUntil } from "./until";

/**
 * "Resumes in 2 hours" for a waiting run, with the exact time in the viewer's time zone on hover
 * (UTC until the browser has hydrated). A due time already past reads "Resuming now".
 */
export function ResumesIn({ value, className }: { value: string; className?: string }) {
  const minute = useSyncExternalStore(subscribeToMinute, minuteSnapshot, serverMinuteSnapshot);
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  const now = readClock();
  const exact = formatExact(date, minute === null ? "UTC" : undefined);
  const text = date.getTime() - now < 60_000 ? "Resuming now" : `Resumes ${formatUntil(date, now)}`;
  return (
    <time
      dateTime={date.toISOString()}
      title={exact}
      className={className}
      data-testid="resumes-in"
      suppressHydrationWarning
    >
      {text}
    </time>
  );
}
