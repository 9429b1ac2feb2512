"use client";

import { useSyncExternalStore } from "react";
import { minuteSnapshot, readClock, serverMinuteSnapshot, subscribeToMinute } from "@/components/ui/clock";
import { exactTitle } from "@/components/ui/format";
import { WhenPart } from "@/components/ui/relative-time";
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
      {!soon && <WhenPart date={date} timeZone={timeZone} now={now} stacked={stacked} />}
    </span>
  );
}
