"use client";

import { useEffect, useMemo, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Notice } from "@/components/ui/notice";
import { reach } from "@/components/ui/hooks/use-server-action";
import { countAudienceAction } from "@/lib/actions/automations/count-audience";
import { listScheduleFiresAction } from "@/lib/actions/automations/list-schedule-fires";
import type { Audience } from "@/lib/automations/nodes/triggers/triggers";
import type { FireView } from "@/lib/automations/schedules/manage";
import {
  cronProblem,
  DST_SENTENCE,
  formatInZone,
  nextFireTimes,
  nextScheduleDstDay,
  timeZoneProblem,
} from "@/lib/time/cron";
import type { DstInput } from "@/lib/time/dst";
import { zoneCity, zonePlace } from "@/lib/time/zone-options";

export interface SchedulePreviewProps {
  /** The schedule trigger's params as the config form holds them (possibly invalid while typing). */
  cron: string;
  timezone: string;
  audience?: Audience;
  /** The schedule's DST rule, when the merchant chose one. */
  dst?: DstInput;
  /** The shop's time zone (`caller.tenant.timezone`): fire times are shown in it and in UTC. */
  shopTimeZone: string;
  /** The saved automation, to list its recent fires (including missed ones). Omit for a new draft. */
  automationId?: string;
}

const FIRE_STATUS: Record<
  FireView["status"],
  { label: string; tone: "success" | "warning" | "info" | "neutral" }
> = {
  done: { label: "Ran", tone: "success" },
  pending: { label: "Running", tone: "info" },
  missed: { label: "Missed", tone: "warning" },
  cancelled: { label: "Stopped", tone: "neutral" },
};

/**
 * What a schedule trigger will do, next to its settings: the next five fire times in the shop's
 * time zone and in UTC, in words (computed in the browser by the same croner-based code the heartbeat
 * uses), what happens when clocks change, how many customers the audience matches now, and the
 * recent fires, missed ones included.
 */
export function SchedulePreview({
  cron,
  timezone,
  audience,
  dst,
  shopTimeZone,
  automationId,
}: SchedulePreviewProps) {
  const problem = cronProblem(cron) ?? timeZoneProblem(timezone);
  // Recomputed each minute so "next" stays next while the panel is open.
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  const gap = dst?.gap;
  const repeat = dst?.repeat;
  const times = useMemo(
    () => (problem ? [] : nextFireTimes(cron, timezone, new Date(now), 5, { gap, repeat })),
    [cron, timezone, problem, now, gap, repeat],
  );
  // The next day a written-out time is skipped or repeated by a clock change, and what happens.
  const dstDay = useMemo(
    () => (problem ? null : nextScheduleDstDay(cron, timezone, new Date(now), { gap, repeat })),
    [cron, timezone, problem, now, gap, repeat],
  );

  const audienceKey = audience ? JSON.stringify(audience) : null;
  const [size, setSize] = useState<{ key: string; value: number | string } | null>(null);
  useEffect(() => {
    if (!audienceKey) return;
    let stale = false;
    // Debounced: the merchant may still be typing a number.
    const timer = setTimeout(async () => {
      const result = await reach(countAudienceAction({ audience: JSON.parse(audienceKey) as Audience }));
      if (!stale) setSize({ key: audienceKey, value: result.ok ? result.data.size : result.error });
    }, 300);
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [audienceKey]);

  const [fires, setFires] = useState<FireView[] | string | null>(null);
  useEffect(() => {
    if (!automationId) return;
    let stale = false;
    void reach(listScheduleFiresAction({ id: automationId, limit: 10 })).then((result) => {
      if (!stale) setFires(result.ok ? result.data.items : result.error);
    });
    return () => {
      stale = true;
    };
  }, [automationId, now]);

  return (
    <section aria-label="Schedule preview" className="space-y-4 text-sm">
      {problem ? (
        <Notice tone="error" title="This schedule cannot run">
          {problem}.
        </Notice>
      ) : (
        <div>
          <h3 className="font-medium text-zinc-900">Next five fire times</h3>
          <table className="mt-2 w-full text-left">
            <thead className="text-xs text-zinc-500">
              <tr>
                <th className="py-1 font-medium">Shop time ({zoneCity(shopTimeZone)})</th>
                <th className="py-1 font-medium">UTC</th>
              </tr>
            </thead>
            <tbody data-testid="schedule-next-fires">
              {times.map((at) => (
                <tr key={at.toISOString()} className="border-t border-zinc-100">
                  <td className="py-1 text-zinc-900">{formatInZone(at, shopTimeZone)}</td>
                  <td className="py-1 text-xs text-zinc-600">{formatInZone(at, "UTC")}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {timezone !== shopTimeZone && (
            <p className="mt-1 text-xs text-zinc-500">
              The schedule&apos;s times are read on the clock of {zonePlace(timezone)}; they are shown here in
              the shop&apos;s zone.
            </p>
          )}
        </div>
      )}
      {dstDay ? (
        <p className="text-xs text-zinc-700" data-testid="schedule-dst-day">
          Next clock change: {dstDay.sentence}
        </p>
      ) : (
        <p className="text-xs text-zinc-600">{DST_SENTENCE}</p>
      )}
      {audience && (
        <p data-testid="schedule-audience-size">
          {size === null || size.key !== audienceKey
            ? "Counting the customers this audience matches…"
            : typeof size.value === "number"
              ? `${size.value === 1 ? "1 customer matches" : `${size.value.toLocaleString("en-US")} customers match`} this audience right now: each fire starts one run per matching customer.`
              : size.value}
        </p>
      )}
      {automationId && (
        <div>
          <h3 className="font-medium text-zinc-900">Recent fires</h3>
          {fires === null ? (
            <p className="text-zinc-500">Loading…</p>
          ) : typeof fires === "string" ? (
            <p className="text-red-700">{fires}</p>
          ) : fires.length === 0 ? (
            <p className="text-zinc-500">This schedule has not fired yet.</p>
          ) : (
            <ul className="mt-2 space-y-1" data-testid="schedule-fires">
              {fires.map((fire) => (
                <li key={fire.id} className="flex flex-wrap items-baseline gap-2">
                  <Badge tone={FIRE_STATUS[fire.status].tone}>{FIRE_STATUS[fire.status].label}</Badge>
                  <span className="text-zinc-900">{formatInZone(new Date(fire.fireAt), shopTimeZone)}</span>
                  {fire.kind === "manual" && <span className="text-xs text-zinc-500">(Run now)</span>}
                  {fire.status !== "missed" && (
                    <span className="text-xs text-zinc-500">
                      {fire.runsCreated === 1 ? "1 run" : `${fire.runsCreated} runs`}
                    </span>
                  )}
                  {fire.reason && <span className="w-full text-xs text-zinc-600">{fire.reason}</span>}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}
