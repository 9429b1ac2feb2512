import type { DeferralKind } from "@/lib/db/schema";
import { quietUntil } from "./quiet";
import type { MessagingSettings } from "./settings";

/**
 * Whether a marketing message goes now, waits, or expired (issue 51, items 3–4). Pure: the gate
 * (gate.ts) reads, under the customer's lock, what this needs, and the dry run asks the same.
 *
 * In order:
 * 1. expired: deferred before, for longer than the automation's `expireAfterHours` → skipped;
 * 2. quiet hours in the customer's zone → waits until they end;
 * 3. the shop's cap: as many sends in the window as the cap allows → deferred until the oldest of
 *    them leaves the window;
 * 4. a deferred message of this customer that is due and ranks higher (priority, then the older
 *    deferral; a message not deferred yet ranks as deferred now) → yields to it, tries again in
 *    `YIELD_MS`; by then that one has gone and the cap defers this one to the next window. So
 *    does a message while the event that started its run has a run of a higher-priority
 *    automation still on its way (three automations one event starts: the highest goes first);
 * 5. else it goes.
 */

/** How long a message that yielded to a higher-ranked one waits before it looks again. */
export const YIELD_MS = 60_000;

export interface Competitor {
  priority: number;
  deferredAt: Date;
  dueAt: Date;
}

export interface MessageSituation {
  now: Date;
  settings: MessagingSettings;
  /** The customer's zone (zone.ts). */
  zone: string;
  /** This automation's priority rank (3 high … 1 low) and expiry. */
  priority: number;
  expireAfterHours: number;
  /** This message's deferral, when it was deferred before. */
  deferredAt: Date | null;
  /** The customer's sends within the cap's window, newest first (at most `cap.count`). */
  sends: Date[];
  /** The customer's other deferred messages still waiting, with live runs. */
  others: Competitor[];
  /** A run the same event started for a higher-priority automation is queued or running. */
  siblingAbove?: boolean;
}

export type MessageDecision =
  | { go: true }
  | { go: false; expired: true }
  | { go: false; expired?: false; kind: DeferralKind; until: Date };

/** Whether `a` goes before `b`: higher priority, then deferred earlier. */
export function ranksAbove(
  a: { priority: number; deferredAt: Date },
  b: { priority: number; deferredAt: Date },
) {
  if (a.priority !== b.priority) return a.priority > b.priority;
  return a.deferredAt.getTime() < b.deferredAt.getTime();
}

export function decideMessage(s: MessageSituation): MessageDecision {
  const now = s.now.getTime();
  if (s.deferredAt && now - s.deferredAt.getTime() > s.expireAfterHours * 3_600_000)
    return { go: false, expired: true };
  const quiet = quietUntil(s.zone, s.now, s.settings.quietHours);
  if (quiet) return { go: false, kind: "quiet", until: quiet };
  const cap = s.settings.cap;
  if (cap && s.sends.length >= cap.count) {
    const oldest = s.sends[cap.count - 1]!;
    return { go: false, kind: "cap", until: new Date(oldest.getTime() + cap.hours * 3_600_000) };
  }
  const me = { priority: s.priority, deferredAt: s.deferredAt ?? s.now };
  if (s.siblingAbove || s.others.some((o) => o.dueAt.getTime() <= now && ranksAbove(o, me)))
    return { go: false, kind: "yield", until: new Date(now + YIELD_MS) };
  return { go: true };
}
