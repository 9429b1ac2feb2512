import { z } from "zod";

/**
 * Terminology (browser-safe; settings forms, the API and the engine read it) — issue 51, items 3–4:
 * - quiet hours: a shop setting (default 21:00–08:00, may be off), read in each customer's own
 *   time zone (zone.ts). A marketing message due inside them waits until they end.
 * - shop cap: marketing messages per customer across all automations (default 1 per 16 hours,
 *   may be off). A message over it is *deferred*, not dropped.
 * - priority: an automation's rank when deferred messages for one customer compete (high, normal,
 *   low; default normal); ties go to the one deferred first.
 * - expire after: how long an automation's message may stay deferred (default 48 hours); past it,
 *   it is skipped with a reason.
 * Transactional messages are never capped and never wait for quiet hours.
 */

export interface QuietHours {
  /** "21:00": when quiet hours begin, on the customer's wall clock. */
  start: string;
  /** "08:00": when they end (the next morning when before `start`). */
  end: string;
}

export interface ShopCap {
  count: number;
  hours: number;
}

/** Stored on the shop (`tenants.messaging`); a part left out takes its default, `null` is off. */
export interface MessagingSettings {
  quietHours: QuietHours | null;
  cap: ShopCap | null;
}

export const DEFAULT_QUIET_HOURS: QuietHours = { start: "21:00", end: "08:00" };
export const DEFAULT_SHOP_CAP: ShopCap = { count: 1, hours: 16 };

const time = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "must be a time such as 21:00");

export const quietHoursInput = z
  .strictObject({ start: time, end: time })
  .refine((q) => q.start !== q.end, "Quiet hours must begin and end at different times.");

export const shopCapInput = z.strictObject({
  count: z
    .int("Messages per customer must be a whole number.")
    .min(1, "Messages per customer must be at least 1.")
    .max(50, "Messages per customer can be at most 50."),
  hours: z
    .int("The hours of the shop's cap must be a whole number.")
    .min(1, "The shop's cap counts over at least 1 hour.")
    .max(720, "The shop's cap counts over at most 720 hours (30 days)."),
});

/** `PUT /api/v1/shop/messaging`, Settings → Shop: `null` turns a part off; left out keeps it. */
export const messagingInput = z.strictObject({
  quietHours: quietHoursInput.nullable().optional(),
  cap: shopCapInput.nullable().optional(),
});
export type MessagingInput = z.infer<typeof messagingInput>;

/** What a shop's stored value means, defaults filled in (null or `{}` in the column: both on). */
export function messagingOf(stored: Partial<MessagingSettings> | null | undefined): MessagingSettings {
  return {
    quietHours: stored?.quietHours === undefined ? DEFAULT_QUIET_HOURS : stored.quietHours,
    cap: stored?.cap === undefined ? DEFAULT_SHOP_CAP : stored.cap,
  };
}

export const PRIORITIES = ["high", "normal", "low"] as const;
export type Priority = (typeof PRIORITIES)[number];
export const PRIORITY_RANK: Record<Priority, number> = { high: 3, normal: 2, low: 1 };
export const PRIORITY_LABELS: Record<Priority, string> = { high: "High", normal: "Normal", low: "Low" };
export const DEFAULT_EXPIRE_AFTER_HOURS = 48;

/** An automation's messaging settings (`PUT /api/v1/automations/:id/messaging`). */
export const automationMessagingInput = z.strictObject({
  priority: z.enum(PRIORITIES, { error: "Priority must be high, normal or low." }).optional(),
  expireAfterHours: z
    .int("Expire after must be a whole number of hours.")
    .min(1, "Expire after must be at least 1 hour.")
    .max(720, "Expire after can be at most 720 hours (30 days).")
    .optional(),
});
export type AutomationMessagingInput = z.infer<typeof automationMessagingInput>;

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

/** "Quiet hours 21:00–08:00 in each customer's time; at most 1 marketing message per customer every 16 hours." */
export function messagingSentence(settings: MessagingSettings): string {
  const quiet = settings.quietHours
    ? `Quiet hours ${settings.quietHours.start}–${settings.quietHours.end} in each customer's own time`
    : "No quiet hours";
  const cap = settings.cap
    ? `at most ${plural(settings.cap.count, "marketing message")} per customer every ${plural(settings.cap.hours, "hour")}`
    : "no limit on marketing messages per customer";
  return `${quiet}; ${cap}.`;
}
