import { z } from "zod";

/**
 * Terminology (browser-safe; the editor, validation and the engine all read it)
 * - purpose: what a customer-facing step is for. `transactional` (an order confirmation, a
 *   shipping update: the customer needs it, so it always goes) or `marketing` (anything else: it
 *   goes only to a customer who accepts marketing and has not unsubscribed).
 * - customer-facing step: a Send email step, or an HTTP step marked "reaches the customer".
 * - unset purpose: a step saved before purposes existed. It sends as it always did, and the next
 *   publish asks for a choice (a ready issue).
 */
export const PURPOSES = ["transactional", "marketing"] as const;
export type Purpose = (typeof PURPOSES)[number];

/** The step param: optional, so graphs saved before it still parse; new steps default to marketing. */
export const purposeParam = z.enum(PURPOSES, { error: "must be transactional or marketing" }).optional();

/** What the editor says under the choice, in one sentence each. */
export const PURPOSE_HINTS: Record<Purpose, string> = {
  transactional:
    "Transactional: something the customer needs about an order or their account (a receipt, a shipping update); it always goes.",
  marketing:
    "Marketing: anything that sells or invites (a cart reminder, a newsletter); it goes only to customers who accept marketing and have not unsubscribed.",
};

export const PURPOSE_LABELS: Record<Purpose, string> = {
  transactional: "Transactional",
  marketing: "Marketing",
};

/** The ready issue of a customer-facing step whose purpose is not chosen yet. */
export const PURPOSE_MISSING =
  "Choose whether this step is transactional or marketing: a marketing step skips customers who do not accept marketing or unsubscribed.";
