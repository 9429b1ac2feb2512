import { appUrl } from "@/lib/auth/auth";
import { getDb } from "@/lib/db/client";
import type { AlertKind } from "@/lib/db/schema/alerts";
import { refreshBaselines } from "./baselines";
import {
  findFailedRuns,
  findOverdueApprovals,
  findOverdueWaits,
  findSilences,
  findStorms,
  type Finding,
} from "./find";
import { alertMessage, runsUrl } from "./message";
import { recordAlerts, type NewAlert } from "./record";

/**
 * One evaluation tick (the `alert_evaluate` task, every minute): refreshes a slice of the
 * baselines, asks each kind what should alert now, and keeps and queues those alerts in one
 * transaction. Safe to run twice at once or again: every alert's dedupe key is unique.
 */

const FINDERS: Record<
  AlertKind,
  (db: Parameters<typeof findFailedRuns>[0], now: Date) => Promise<Finding[]>
> = {
  failed_runs: findFailedRuns,
  silence: findSilences,
  storm: findStorms,
  overdue_waits: findOverdueWaits,
  approval_overdue: findOverdueApprovals,
};

export interface EvaluationReport {
  /** Alerts made in this tick, by kind. */
  made: Record<AlertKind, number>;
  /** Baselines refreshed in this tick. */
  baselines: number;
  /** Milliseconds each part took: `baselines` and each kind. */
  ms: Record<AlertKind | "baselines", number>;
}

export function toAlert(finding: Finding, origin: string): NewAlert {
  return {
    tenantId: finding.tenantId,
    ruleId: finding.ruleId,
    automationId: finding.automationId,
    automationName: finding.automationName,
    kind: finding.kind,
    message: alertMessage(finding.automationName, finding.facts, finding.timeZone),
    count: finding.count,
    runsUrl: runsUrl(origin, finding.kind, finding.automationId, finding.since, finding.timeZone),
    channel: finding.channel,
    dedupeKey: finding.dedupeKey,
    windowEnd: finding.windowEnd,
  };
}

export async function evaluateAlerts(options: { now?: Date } = {}): Promise<EvaluationReport> {
  const now = options.now ?? new Date();
  const origin = appUrl();
  return getDb().transaction(async (tx) => {
    const ms = {} as EvaluationReport["ms"];
    const made = {} as EvaluationReport["made"];
    let started = performance.now();
    const baselines = await refreshBaselines(tx, now);
    ms.baselines = performance.now() - started;
    const alerts: NewAlert[] = [];
    for (const [kind, find] of Object.entries(FINDERS) as [AlertKind, (typeof FINDERS)[AlertKind]][]) {
      started = performance.now();
      const found = await find(tx, now);
      ms[kind] = performance.now() - started;
      made[kind] = found.length;
      alerts.push(...found.map((finding) => toAlert(finding, origin)));
    }
    await recordAlerts(tx, alerts, now);
    return { made, baselines, ms };
  });
}
