/**
 * Whether a marketing message may reach a customer, and if not the sentence the run page shows.
 * Pure: the engine, the dry run and the backtest give it what they read and say the same thing.
 */

/** What the decision reads of a customer. */
export interface ConsentState {
  id: string;
  /** Their first name, else their name, else their email: how the sentence names them. */
  name: string;
  acceptsMarketing: boolean;
  /** When they unsubscribed (null: never, or subscribed again since). */
  unsubscribedAt: Date | null;
  unsubscribedVia: "link" | "store" | "merchant" | null;
}

/** Why a message was skipped: counted apart in Insights. */
export type SkipKind = "consent" | "unsubscribed";

export interface ConsentSkip {
  kind: SkipKind;
  customerId: string;
  /** "Skipped: Mia does not accept marketing emails". */
  sentence: string;
}

const VIA_WORDS = {
  link: "with the email's unsubscribe link",
  store: "in the connected store",
  merchant: "by the shop",
} as const;

/** How a sentence names a customer, from their record's fields. */
export function customerName(id: string, data: Record<string, unknown>): string {
  for (const key of ["firstName", "name", "email"]) {
    const value = data[key];
    if (typeof value === "string" && value.trim()) return value.trim();
  }
  return `customer ${id}`;
}

/**
 * Null when a marketing message may go to every customer in `customers`; else why the first who
 * may not be reached is skipped. An unsubscribe is named before a missing consent: it says more.
 */
export function marketingRefusal(customers: readonly ConsentState[], channel = "emails"): ConsentSkip | null {
  const unsubscribed = customers.find((c) => c.unsubscribedAt !== null);
  if (unsubscribed) {
    const via = unsubscribed.unsubscribedVia ? ` ${VIA_WORDS[unsubscribed.unsubscribedVia]}` : "";
    return {
      kind: "unsubscribed",
      customerId: unsubscribed.id,
      sentence: `Skipped: ${unsubscribed.name} unsubscribed from marketing ${channel}${via}`,
    };
  }
  const refusing = customers.find((c) => !c.acceptsMarketing);
  return refusing
    ? {
        kind: "consent",
        customerId: refusing.id,
        sentence: `Skipped: ${refusing.name} does not accept marketing ${channel}`,
      }
    : null;
}
