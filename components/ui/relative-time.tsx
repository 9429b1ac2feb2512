"use client";

import { useSyncExternalStore } from "react";
import { minuteSnapshot, readClock, serverMinuteSnapshot, subscribeToMinute } from "./clock";
import { exactTitle, formatRelative, formatWhen } from "./format";
import { useShopTimeZone } from "./shop-time";

export interface RelativeTimeProps {
  /** An ISO date-time string or a Date. */
  value: string | Date;
  className?: string;
  /** Only "5 minutes ago", for a time inside a sentence ("Saved 5 minutes ago"). Default false. */
  brief?: boolean;
  /**
   * The absolute time on a line of its own, smaller, instead of after a "·": for a table column,
   * which can then be as narrow as its longer line. Default false.
   */
  stacked?: boolean;
}

/**
 * "5 minutes ago · Dec 1, 9:05 AM": relative, then absolute in the shop's time zone, with the exact
 * time in the shop's zone and in UTC on hover and a machine-readable `dateTime`. Updates every
 * minute; the relative part follows the browser's clock after hydration (hence
 * suppressHydrationWarning), the absolute part is the same on the server and in the browser.
 */
export function RelativeTime({ value, className, brief = false, stacked = false }: RelativeTimeProps) {
  useSyncExternalStore(subscribeToMinute, minuteSnapshot, serverMinuteSnapshot);
  const timeZone = useShopTimeZone();
  const date = typeof value === "string" ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return <span className={className}>—</span>;
  const now = readClock();
  return (
    <time dateTime={date.toISOString()} title={exactTitle(date, timeZone)} className={className}>
      <span className={stacked ? "whitespace-nowrap" : undefined} suppressHydrationWarning>
        {formatRelative(date, now)}
      </span>
      {!brief && <WhenPart date={date} timeZone={timeZone} now={now} stacked={stacked} />}
    </time>
  );
}

/**
 * The absolute half of a time ("Dec 4, 2:34 PM") after its relative half: " · Dec 4, …" on the same
 * line, or stacked on a smaller second line that a screen reader still reads as one sentence.
 */
export function WhenPart({
  date,
  timeZone,
  now,
  stacked,
}: {
  date: Date;
  timeZone: string;
  now: number;
  stacked: boolean;
}) {
  return stacked ? (
    <span className="block text-xs whitespace-nowrap text-zinc-500" suppressHydrationWarning>
      <span className="sr-only"> · </span>
      {formatWhen(date, timeZone, now)}
    </span>
  ) : (
    <span className="text-zinc-500" suppressHydrationWarning>
      {" · "}
      {formatWhen(date, timeZone, now)}
    </span>
  );
}
