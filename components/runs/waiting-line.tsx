"use client";

import { useSyncExternalStore } from "react";
import { minuteSnapshot, readClock, serverMinuteSnapshot, subscribeToMinute } from "@/components/ui/clock";
import { exactTitle } from "@/components/ui/format";
import { useShopTimeZone } from "@/components/ui/shop-time";
import type { RunSummary } from "@/lib/automations/runs/summary";
import { TimesOutIn } from "@/components/approvals/times-out-in";
import { ResumesIn } from "./resumes-in";
import { clockTime, retryingText } from "./retrying";

/**
 * The line under a waiting run's status: "Retrying — attempt 2 of 3 at 14:05" when its earliest
 * pending wait is a retry, "Waiting for an event · Times out in 3 days" when it is a wait for an
 * event, else "Resumes in 2 hours" — or, when the wake table will cancel it as
 * things stand, why and what to do, in a warning tone. Nothing for a run that is not waiting.
 */
export function WaitingLine({
  run,
  className,
  doomedClassName = "text-amber-800",
  stacked = false,
}: {
  run: Pick<RunSummary, "status" | "resumeAt" | "nextWait"> & Partial<Pick<RunSummary, "fate">>;
  className?: string;
  /** Classes of the "Will be cancelled when it wakes: …" line. */
  doomedClassName?: string;
  /** "Resumes in …" with the absolute time on a line of its own (for a table column). */
  stacked?: boolean;
}) {
  if (run.status !== "waiting" || !run.resumeAt) return null;
  if (run.fate && !run.fate.continues)
    return <WaitFateLine reason={run.fate.reason} className={doomedClassName} />;
  if (run.nextWait?.kind === "event")
    return (
      <span className={className} data-testid="waiting-for-event">
        Waiting for an event · <TimesOutIn value={run.resumeAt} brief />
      </span>
    );
  // A marketing message held by quiet hours or the shop's cap: why, and until when in the
  // customer's and the shop's time (lib/messaging).
  if (run.nextWait?.kind === "deferred" && run.nextWait.deferred)
    return (
      <span className={className} data-testid="waiting-deferred">
        {run.nextWait.deferred}
      </span>
    );
  if (run.nextWait?.kind === "retry") {
    return <RetryingAt value={run.resumeAt} retry={run.nextWait.retry} className={className} />;
  }
  return <ResumesIn value={run.resumeAt} className={className} stacked={stacked} />;
}

/**
 * "Retrying — attempt 2 of 3 at 14:05" in the viewer's time zone, the exact time on hover (UTC,
 * and said so, until the browser has hydrated).
 */
export function RetryingAt({
  value,
  retry,
  className,
}: {
  value: string;
  retry: { attempt: number; of: number } | null;
  className?: string;
}) {
  useSyncExternalStore(subscribeToMinute, minuteSnapshot, serverMinuteSnapshot);
  const zone = useShopTimeZone();
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  return (
    <time
      dateTime={date.toISOString()}
      title={exactTitle(date, zone)}
      className={className}
      data-testid="retrying-at"
      suppressHydrationWarning
    >
      {retryingText(date, readClock(), retry, zone)}
    </time>
  );
}

/** "15:05" in the shop's time zone, the exact time there and in UTC on hover. */
export function ClockTime({ value }: { value: string }) {
  const zone = useShopTimeZone();
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  return (
    <time dateTime={date.toISOString()} title={exactTitle(date, zone)}>
      {clockTime(date, zone)}
    </time>
  );
}

/** "Will be cancelled when it wakes: the automation is paused — …", in a warning tone. */
export function WaitFateLine({
  reason,
  className = "text-amber-800",
}: {
  reason: string;
  className?: string;
}) {
  return (
    <span className={className} data-testid="wait-fate">
      <span aria-hidden="true">⚠ </span>
      {reason}
    </span>
  );
}
