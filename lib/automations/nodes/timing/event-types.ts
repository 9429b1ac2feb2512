import { DOMAINS, DOMAIN_LABELS, STATUS_EVENTS } from "@/lib/domains/domains";
import { TRIGGER_DEFINITIONS } from "../triggers/triggers";

/**
 * The event types a shop records, in the merchant's words, for "Wait for event": every trigger's
 * event (`order.fulfilled` → "Order fulfilled", `webhook.received` → "Webhook received"), and for
 * every kind of record its `created` and `status_changed` events. A schedule's firing and a later
 * step are not events anyone waits for. Browser-safe.
 */

export interface EventTypeOption {
  type: string;
  label: string;
}

/** Events that start runs but are nobody's to wait for. */
const NOT_WAITABLE: ReadonlySet<string> = new Set(["schedule.fired", "later"]);

function spelt(type: string): string {
  const words = type.replace(/[._]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function buildOptions(): EventTypeOption[] {
  const byType = new Map<string, string>();
  for (const { event, label } of Object.values(TRIGGER_DEFINITIONS) as { event?: string; label: string }[]) {
    if (event && !NOT_WAITABLE.has(event)) byType.set(event, label);
  }
  for (const domain of DOMAINS) {
    const one = DOMAIN_LABELS[domain].one;
    const name = one.charAt(0).toUpperCase() + one.slice(1);
    if (!byType.has(`${domain}.created`)) byType.set(`${domain}.created`, `${name} created`);
    for (const event of Object.values(STATUS_EVENTS[domain] ?? {}))
      if (!byType.has(event)) byType.set(event, spelt(event));
    if (!byType.has(`${domain}.status_changed`))
      byType.set(`${domain}.status_changed`, `${name} status changed`);
  }
  return [...byType].map(([type, label]) => ({ type, label })).sort((a, b) => a.label.localeCompare(b.label));
}

let cached: EventTypeOption[] | null = null;

/** Every event type offered, by label. */
export function eventTypeOptions(): readonly EventTypeOption[] {
  cached ??= buildOptions();
  return cached;
}

/** "Order fulfilled" for `order.fulfilled`; a type the list does not know is spelt out ("Customer updated"). */
export function eventLabel(type: string): string {
  return eventTypeOptions().find((option) => option.type === type)?.label ?? spelt(type);
}

/**
 * The options whose label or type holds every word of `query`; the chosen type (`keep`) always
 * stays, first, even when it is not one the list knows.
 */
export function searchEventTypes(query: string, keep: string): EventTypeOption[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const all = eventTypeOptions();
  const found = all.filter((option) => {
    const haystack = `${option.label} ${option.type}`.toLowerCase();
    return words.every((word) => haystack.includes(word));
  });
  const kept = keep
    ? (all.find((option) => option.type === keep) ?? { type: keep, label: eventLabel(keep) })
    : null;
  return kept ? [kept, ...found.filter((option) => option.type !== kept.type)] : found;
}
