"use client";

import { exactTitle, formatExact } from "./format";
import { useShopTimeZone } from "./shop-time";

/** "Nov 30, 2026, 9:05 AM GMT+1" in the shop's time zone, UTC on hover, with a machine-readable `dateTime`. */
export function ExactTime({ value, className }: { value: string | Date; className?: string }) {
  const timeZone = useShopTimeZone();
  const date = typeof value === "string" ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return <span className={className}>—</span>;
  return (
    <time dateTime={date.toISOString()} title={exactTitle(date, timeZone)} className={className}>
      {formatExact(date, timeZone)}
    </time>
  );
}
