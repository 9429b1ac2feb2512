import type { AlertKind } from "@/lib/db/schema/alerts";
import { formatInZone } from "@/lib/time/cron";

/**
 * Each alert's one plain sentence and the link to the runs it is about. Pure: the evaluator passes
 * the facts, the shop's time zone and the app's address.
 */

const count = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/** A day as the runs page's date filter reads it (`2026-12-05`), in the shop's zone. */
export function dayInZone(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(at);
}

/** The automation's runs, filtered to what the alert is about. */
export function runsUrl(
  origin: string,
  kind: AlertKind,
  automationId: string,
  since: Date,
  timeZone: string,
): string {
  const base = `${origin.replace(/\/$/, "")}/automations/${automationId}`;
  const from = `from=${dayInZone(since, timeZone)}`;
  switch (kind) {
    case "failed_runs":
      return `${base}/runs?status=failed_or_partial&${from}`;
    case "silence":
      return `${base}/runs`;
    case "storm":
      return `${base}/runs?${from}`;
    case "overdue_waits":
      return `${base}/waiting`;
    case "approval_overdue":
      return `${base}/runs?status=waiting&${from}`;
  }
}

/** The facts one alert states; each kind reads its own. */
export type AlertFacts =
  | {
      kind: "failed_runs";
      count: number;
      since: Date;
      first: boolean;
      /** The latest failed run: its record in words ("Order #1022") and its error, when known. */
      latest?: { record: string | null; error: string | null };
    }
  | { kind: "silence"; perDay: number; lastRunAt: Date; hours: number }
  | { kind: "storm"; count: number; held: number; max: number | null; usual: number | null }
  | { kind: "overdue_waits"; count: number; minutes: number }
  | { kind: "approval_overdue"; count: number };

/** An error as an alert quotes it: one line, at most 300 characters. */
function clip(error: string): string {
  const line = error.replace(/\s+/g, " ").trim();
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}

/** The alert's sentence: it names the automation and says what happened. */
export function alertMessage(name: string, facts: AlertFacts, timeZone: string): string {
  const who = `'${name}'`;
  switch (facts.kind) {
    case "failed_runs": {
      const record = facts.latest?.record;
      const error = facts.latest?.error ? ` It said: “${clip(facts.latest.error)}”` : "";
      if (facts.first && facts.count === 1)
        return `${who} had a run that failed or partly failed${record ? ` on ${record}` : ""}.${error}`;
      const said = facts.latest?.error ? `said: “${clip(facts.latest.error)}”` : "";
      const latest =
        record && said
          ? ` The latest was on ${record} and ${said}`
          : record
            ? ` The latest was on ${record}.`
            : said
              ? ` The latest ${said}`
              : "";
      return `${who} had ${count(facts.count, "run")} that failed or partly failed since ${formatInZone(facts.since, timeZone)}.${latest}`;
    }
    case "silence":
      return `${who} usually runs about ${count(Math.round(facts.perDay), "time")} a day but has had no run for ${count(facts.hours, "hour")}: its last run started ${formatInZone(facts.lastRunAt, timeZone)}.`;
    case "storm": {
      const started = `${who} started ${count(facts.count, "run")} in the last hour`;
      if (facts.held > 0)
        return `${started} and its hourly cap held ${count(facts.held, "more run", "more runs")}.`;
      if (facts.max !== null && facts.count > facts.max)
        return `${started}, more than the ${count(facts.max, "run")} an hour this alert allows.`;
      return `${started}, over 5 times its usual busiest hour (about ${count(Math.round(facts.usual ?? 0), "run")}).`;
    }
    case "overdue_waits":
      return `${count(facts.count, "run")} of ${who} ${facts.count === 1 ? "is" : "are"} still waiting more than ${count(facts.minutes, "minute")} after ${facts.count === 1 ? "its wait was" : "their waits were"} due.`;
    case "approval_overdue":
      return `${count(facts.count, "approval")} in ${who} ${facts.count === 1 ? "is" : "are"} still undecided after the approvers were reminded.`;
  }
}
