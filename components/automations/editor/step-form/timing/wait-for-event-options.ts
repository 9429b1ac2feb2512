import { hasRecord } from "@/lib/automations/nodes/registry";
import { eventMatch } from "@/lib/automations/nodes/timing/wait-for-event";
import type { TriggerDomain } from "@/lib/automations/nodes/types";

/** Choices of the "Wait for event" form: which event is the run's, and the time limit. Pure. */

export type MatchKind = "same_record" | "field";

/** The match of stored params as the form edits it; anything unreadable counts as the same record. */
export function readMatch(value: unknown): { kind: MatchKind; path: string; equals: string } {
  const record = typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
  return {
    kind: record.kind === "field" ? "field" : "same_record",
    path: typeof record.path === "string" ? record.path : "",
    equals: typeof record.equals === "string" ? record.equals : "",
  };
}

/** The params' `match` for a kind, with the field's path and value kept while the merchant switches. */
export function matchParam(kind: MatchKind, path: string, equals: string): Record<string, string> {
  return kind === "field" ? { kind, path, equals } : { kind };
}

/**
 * Whether "About the same record" is offered: when the flow's trigger has a record (an order, a
 * customer…), or the step already says so (its ready issue then asks for a field instead).
 */
export function offersSameRecord(triggerDomain: TriggerDomain | null, kind: MatchKind): boolean {
  return triggerDomain === null || hasRecord(triggerDomain) || kind === "same_record";
}

/** What is wrong with the field's path and value, each under its own input (the schema's words). */
export function matchFieldErrors(match: unknown): { path?: string; equals?: string } {
  const parsed = eventMatch.safeParse(match);
  if (parsed.success) return {};
  const errors: { path?: string; equals?: string } = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path[0];
    if (key === "path" && !errors.path) errors.path = `The field ${issue.message}.`;
    if (key === "equals" && !errors.equals) errors.equals = `The value ${issue.message}.`;
  }
  return errors;
}

export type LimitUnit = "hours" | "days";

/** A stored number of hours as the form shows it: whole days when it is some, else hours. */
export function splitHours(hours: unknown): { amount: string; unit: LimitUnit } {
  if (typeof hours !== "number" || !Number.isFinite(hours)) return { amount: "", unit: "days" };
  return hours % 24 === 0
    ? { amount: String(hours / 24), unit: "days" }
    : { amount: String(hours), unit: "hours" };
}

/** The hours to store for what was typed; text that is not a number is kept, for the schema to name. */
export function toHours(amount: string, unit: LimitUnit): number | string {
  const trimmed = amount.trim();
  if (!/^\d+(\.\d+)?$/.test(trimmed)) return trimmed;
  const value = Number(trimmed);
  return unit === "days" ? value * 24 : value;
}

/** The schema's word on `timeoutHours`, in the form's terms (a time limit in hours or days). */
export function limitError(error: string | undefined): string | undefined {
  if (!error) return undefined;
  return /at most/.test(error)
    ? "The time limit can be at most 30 days (720 hours)."
    : "The time limit must be a whole number of hours or days, at least 1 hour.";
}
