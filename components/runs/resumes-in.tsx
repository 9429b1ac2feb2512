"use client";

import { useSyncExternalStore } from "react";
import { minuteSnapshot, readClock, serverMinuteSnapshot, subscribeToMinute } from "@/components/ui/clock";
import { exactTitle, formatWhen } from "@/components/ui/format";
import { useShopTimeZone } from "@/components/ui/shop-time";
import { formatUntil } from "./until";

/**
 * "Resumes in 2 hours · Dec 2, 2:00 PM" for a waiting run — relative, then absolute in the shop's
 * time zone — with the exact time there and in UTC on hover. A due time already past reads
 * "Resuming now". A wait the wake table will cancel (`doomed`) never says it resumes: "Wakes in 2
 * days · …", beside the line that says why it will be cancelled then.
 */
export function ResumesIn({
  value,
  className,
  doomed = false,
  stacked = false,
}: {
  value: string;
  className?: string;
  doomed?: boolean;
  /** The absolute time on a line of its own, smaller, instead of after a "·" (for a table column). */
  stacked?: boolean;
}) {
  useSyncExternalStore(subscribeToMinute, minuteSnapshot, serverMinuteSnapshot);
  const timeZone = useShopTimeZone();
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  const now = readClock();
  const soon = date.getTime() - now < 60_000;
  const verb = doomed ? ["Waking now", "Wakes"] : ["Resuming now", "Resumes"];
  return (
    <span className={className}>
      <time
        dateTime={date.toISOString()}
        title={exactTitle(date, timeZone)}
        data-testid={doomed ? "wakes-in" : "resumes-in"}
        suppressHydrationWarning
      >
        {soon ? verb[0] : `${verb[1]} ${formatUntil(date, now)}`}
      </time>
      {!soon && stacked && (
        <span className="block text-xs whitespace-nowrap text-zinc-500" suppressHydrationWarning>
          {/* Read out as one sentence with the line above, as the inline form writes it. */}
          <span className="sr-only"> · </span>
          {formatWhen(date, timeZone, now)}
        </span>
      )}
      {!soon && !stacked && (
        <span className="text-zinc-500" suppressHydrationWarning>
          {" · "}
          {formatWhen(date, timeZone, now)}
        </span>
      )}
    </span>
  );
}
