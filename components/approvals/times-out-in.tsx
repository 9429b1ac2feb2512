"use client";

import { useSyncExternalStore } from "react";
import { formatUntil } from "@/components/runs/until";
import { minuteSnapshot, readClock, serverMinuteSnapshot, subscribeToMinute } from "@/components/ui/clock";
import { exactTitle, formatWhen } from "@/components/ui/format";
import { useShopTimeZone } from "@/components/ui/shop-time";

/**
 * "Times out in 3 days · Dec 4, 9:00 AM, then follows 'Timed out'" for a pending approval, the
 * absolute time in the shop's time zone (and UTC on hover). A timeout already past
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
  useSyncExternalStore(subscribeToMinute, minuteSnapshot, serverMinuteSnapshot);
  const timeZone = useShopTimeZone();
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  const now = readClock();
  const soon = date.getTime() - now < 60_000;
  return (
    <span className={className} data-testid="times-out-in">
      <time dateTime={date.toISOString()} title={exactTitle(date, timeZone)} suppressHydrationWarning>
        {soon ? "Timing out now" : `Times out ${formatUntil(date, now)}`}
      </time>
      {!soon && (
        <span className="text-zinc-500" suppressHydrationWarning>
          {" · "}
          {formatWhen(date, timeZone, now)}
        </span>
      )}
      {!brief && ", then follows 'Timed out'"}
    </span>
  );
}
