"use client";

import { useSyncExternalStore } from "react";
import { formatUntil } from "@/components/runs/until";
import { minuteSnapshot, readClock, serverMinuteSnapshot, subscribeToMinute } from "@/components/ui/clock";
import { formatExact } from "@/components/ui/format";

/**
 * "Times out in 3 days, then follows 'Timed out'" for a pending approval, with the exact time in
 * the viewer's time zone on hover (UTC until the browser has hydrated). A timeout already past
 * reads "Timing out now": the worker is about to follow 'Timed out'.
 */
export function TimesOutIn({
  value,
  className,
  brief = false,
}: {
  value: string;
  className?: string;
  /** Leave out ", then follows 'Timed out'" (a table cell). Default false. */
  brief?: boolean;
}) {
  const minute = useSyncExternalStore(subscribeToMinute, minuteSnapshot, serverMinuteSnapshot);
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  const now = readClock();
  const exact = formatExact(date, minute === null ? "UTC" : undefined);
  const soon = date.getTime() - now < 60_000;
  return (
    <span className={className} data-testid="times-out-in">
      <time dateTime={date.toISOString()} title={exact} suppressHydrationWarning>
        {soon ? "Timing out now" : `Times out ${formatUntil(date, now)}`}
      </time>
      {!brief && ", then follows 'Timed out'"}
    </span>
  );
}
